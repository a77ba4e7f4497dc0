import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app.config';
import { dataSourceOptions } from './database.options';

/** Entry for the TypeORM CLI (`npm run migration:generate`, `migration:run`, `migration:revert`). */
export default new DataSource(dataSourceOptions(loadConfig()));
