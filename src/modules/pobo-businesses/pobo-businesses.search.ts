import type { SearchSource } from '../../common/search/search-source';

/** Businesses are found by id and by the start of their name. */
export const POBO_BUSINESS_SEARCH: SearchSource<'name'> = {
  kind: 'pobo_business',
  table: 'pobo_businesses',
  idPrefix: 'pobo',
  name: 'business_name',
  fields: { name: 'business_name' },
  label: ({ name }) => name,
};
