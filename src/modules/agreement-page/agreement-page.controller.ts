import { Body, Controller, Get, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AGREEMENT_PAGE_PATH } from '../agreements';
import { PublicRoute } from '../auth';
import { AgreementPageExceptionFilter } from './agreement-page.filter';
import { AgreementPageService, pageClient, sendPage } from './agreement-page.service';

/**
 * The agreement page behind `agreement.url`: server-rendered HTML, no login, no script. Not part
 * of the merchant API, so not in OpenAPI. The form posts `application/x-www-form-urlencoded`.
 */
@ApiExcludeController()
@UseFilters(AgreementPageExceptionFilter)
@Controller(AGREEMENT_PAGE_PATH)
export class AgreementPageController {
  constructor(private readonly page: AgreementPageService) {}

  @Get(':token')
  @PublicRoute()
  async view(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendPage(reply, await this.page.view(token, pageClient(request)));
  }

  @Post(':token')
  @PublicRoute()
  async accept(@Param('token') token: string, @Body() form: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendPage(reply, await this.page.accept(token, form, pageClient(request)));
  }
}
