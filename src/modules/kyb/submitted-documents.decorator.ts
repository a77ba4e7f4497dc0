import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ReceivedDocument, ReceivedDocuments } from './kyb-documents.extractor';

/** The documents `installKybUploadHooks` decoded out of this request's body, by path. */
export const SubmittedDocuments = createParamDecorator(
  (_: unknown, context: ExecutionContext): ReceivedDocuments =>
    context.switchToHttp().getRequest<FastifyRequest>().kybDocuments ?? new Map<string, ReceivedDocument>(),
);
