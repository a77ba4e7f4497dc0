import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQuery } from '../../../common/http/list.query';
import { KYB_STATES } from '../pobo-business.states';

/** `?limit=&cursor=` and the list's filter: one KYB status (the businesses stuck in `action_required`, say). */
export class BusinessListQuery extends ListQuery {
  @ApiPropertyOptional({ enum: KYB_STATES.states, description: 'Only businesses whose KYB is in this status' })
  @IsOptional()
  @IsIn(KYB_STATES.states)
  kybStatus?: string;
}
