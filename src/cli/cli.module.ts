import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '../config/app.config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { AuthModule } from '../modules/auth';

@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: CliModule, imports: [ConfigModule.forRoot(config), DatabaseModule, AuthModule] };
  }
}
