import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQuery } from '../../../common/http/list.query';
import { WITHDRAWAL_STATES } from '../withdrawal.states';

/** `?limit=&cursor=` and the list's filter: one status. */
export class WithdrawalListQuery extends ListQuery {
  @ApiPropertyOptional({ enum: WITHDRAWAL_STATES.states, description: 'Only withdrawals in this status' })
  @IsOptional()
  @IsIn(WITHDRAWAL_STATES.states)
  status?: string;
}
