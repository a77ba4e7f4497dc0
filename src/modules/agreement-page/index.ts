/** What the root wiring uses of the agreement page. */
export { AgreementPageModule } from './agreement-page.module';
export { installAgreementPageErrors } from './agreement-page.filter';
