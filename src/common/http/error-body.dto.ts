import { ApiProperty } from '@nestjs/swagger';

/** One problem with one field of a request. */
export class ErrorDetailDto {
  @ApiProperty({ example: 'company.country' })
  field: string;

  @ApiProperty({ example: 'country must be a valid ISO31661 Alpha2 code' })
  message: string;
}

class ErrorInfoDto {
  @ApiProperty({ description: 'Stable snake_case identifier clients branch on', example: 'validation_failed' })
  code: string;

  @ApiProperty({ type: [ErrorDetailDto] })
  details: ErrorDetailDto[];
}

/** OpenAPI description of every non-2xx body. */
export class ErrorBodyDto {
  @ApiProperty({ example: 'Request validation failed' })
  message: string;

  @ApiProperty({ type: ErrorInfoDto })
  error: ErrorInfoDto;

  @ApiProperty({ example: 'req_5f0c1e2d3a4b5c6d7e8f9a0b' })
  requestId: string;
}
