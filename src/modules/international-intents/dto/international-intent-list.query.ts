import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQuery } from '../../../common/http/list.query';
import { INTERNATIONAL_INTENT_STATES } from '../international-intent.states';

/** `?limit=&cursor=` and the list's filter: one status of the pipeline. */
export class InternationalIntentListQuery extends ListQuery {
  @ApiPropertyOptional({ enum: INTERNATIONAL_INTENT_STATES.states, description: 'Only intents in this status' })
  @IsOptional()
  @IsIn(INTERNATIONAL_INTENT_STATES.states)
  status?: string;
}
