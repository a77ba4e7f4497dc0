import { NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { AppError, ServiceUnavailableError } from './app-error';
import { dependencyFailure, isDependencyDown, toErrorResponse } from './error-response';

describe('toErrorResponse', () => {
  it('maps module errors by code, keeping details and headers', () => {
    const response = toErrorResponse(new AppError('agreement_not_accepted', 'Agreement has not been accepted', [{ field: 'x', message: 'y' }]), 'req_1');
    expect(response).toEqual({
      status: 409,
      headers: {},
      unexpected: false,
      body: {
        message: 'Agreement has not been accepted',
        error: { code: 'agreement_not_accepted', details: [{ field: 'x', message: 'y' }] },
        requestId: 'req_1',
      },
    });
    expect(toErrorResponse(new ServiceUnavailableError(), 'r').headers).toEqual({ 'Retry-After': '1' });
  });

  it('maps framework errors by status', () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /x'), 'r').body.error.code).toBe('route_not_found');
    expect(toErrorResponse(new PayloadTooLargeException(), 'r')).toMatchObject({ status: 413, body: { error: { code: 'payload_too_large' } } });
  });

  it('never leaks the message, SQL or stack of an unexpected error', () => {
    const err = Object.assign(new Error('duplicate key value violates unique constraint "uq_x" SELECT * FROM secrets'), { query: 'SELECT 1' });
    const response = toErrorResponse(err, 'r');
    expect(response).toMatchObject({ status: 500, unexpected: true, body: { message: 'Internal server error', error: { code: 'internal_error' } } });
    expect(JSON.stringify(response.body)).not.toMatch(/SELECT|duplicate|at /);
  });

  it('treats unreachable PostgreSQL or Redis as 503 with Retry-After', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(isDependencyDown(refused)).toBe(true);
    expect(isDependencyDown(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDependencyDown({ driverError: { code: '57P01' } })).toBe(true);
    expect(isDependencyDown(Object.assign(new AggregateError([refused]), {}))).toBe(true);
    expect(isDependencyDown(new Error('syntax error at or near'))).toBe(false);
    expect(toErrorResponse(refused, 'r')).toMatchObject({ status: 503, headers: { 'Retry-After': '1' }, body: { error: { code: 'service_unavailable' } } });
  });

  it('tells which dependency was unreachable and why, in words safe to log', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' });
    // An outage is not a bug: no stack is logged for it (see DependencyOutages), unlike a 500.
    expect(toErrorResponse(refused, 'r')).toMatchObject({ unexpected: false, dependencyFailure: { dependency: 'database', reason: 'connect ECONNREFUSED' } });
    expect(dependencyFailure(new AggregateError([refused], ''))).toEqual({ dependency: 'database', reason: 'connect ECONNREFUSED' });
    // TypeORM's QueryFailedError carries the statement, which must not reach the log line.
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
      query: 'SELECT secret FROM t',
      driverError: {},
    });
    expect(dependencyFailure(terminated)).toEqual({ dependency: 'database', reason: '57P01 terminating connection due to administrator command' });
    expect(dependencyFailure(new Error('Connection terminated unexpectedly'))).toEqual({
      dependency: 'database',
      reason: 'Connection terminated unexpectedly',
    });
    expect(dependencyFailure(new Error("Stream isn't writeable and enableOfflineQueue options is false"))?.dependency).toBe('redis');
    expect(dependencyFailure(new Error('Connection is closed.'))?.dependency).toBe('redis');
    expect(dependencyFailure(new Error('Reached the max retries per request limit (which is 1).'))?.dependency).toBe('redis');
    expect(dependencyFailure(new Error('syntax error at or near'))).toBeUndefined();
    expect(toErrorResponse(new Error('boom'), 'r').dependencyFailure).toBeUndefined();
  });

  it("treats a connection lost under a transaction (TypeORM's released runner, pg's dead client) as the database being down", async () => {
    const { QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } = await import('typeorm');
    for (const lost of [
      new QueryRunnerAlreadyReleasedError(),
      new QueryRunnerProviderAlreadyReleasedError(),
      new Error('Client has encountered a connection error and is not queryable'),
    ]) {
      expect(toErrorResponse(lost, 'r')).toMatchObject({
        status: 503,
        headers: { 'Retry-After': '1' },
        unexpected: false,
        dependencyFailure: { dependency: 'database' },
      });
    }
  });
});
