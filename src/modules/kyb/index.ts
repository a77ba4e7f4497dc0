/** What the rest of the application may use of the KYB module. */
export { KybModule } from './kyb.module';
export { installKybUploadHooks } from './kyb-upload.hooks';
export { REQUIRED_COMPANY_FILE_TYPES } from './kyb.constants';
