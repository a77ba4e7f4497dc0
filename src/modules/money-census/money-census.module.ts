import { Module } from '@nestjs/common';
import { MoneyCensusRepository } from './money-census.repository';
import { MoneyCensusService } from './money-census.service';

/**
 * Owns no table: it reads the money objects' tables only as their owners declare them
 * (`MoneyObjectSource`), for the operator port.
 */
@Module({ providers: [MoneyCensusService, MoneyCensusRepository], exports: [MoneyCensusService] })
export class MoneyCensusModule {}
