import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ErrorDetail, ValidationFailedError } from '../errors/app-error';

/** Flattens class-validator's tree into `{ field: "company.country", message }` entries. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): ErrorDetail[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
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
