import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ErrorDetail, ValidationFailedError } from '../errors/app-error';

/**
 * Flattens class-validator's tree into `{ field, message }` entries. `field` is the one path
 * syntax of every error detail: properties joined by dots, array positions in brackets
 * (`company_files[6].file_type`), as the KYB rules and size limits write them too.
 */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): ErrorDetail[] {
  return errors.flatMap((error) => {
    const field = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      field,
      message: message.replace(/^property (\S+) should not exist$/, 'unknown field'),
    }));
    return [...own, ...flattenValidationErrors(error.children ?? [], field)];
  });
}

/** The one validation pipe: unknown fields are refused so state can never be mass-assigned. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new ValidationFailedError(flattenValidationErrors(errors)),
  });
}
