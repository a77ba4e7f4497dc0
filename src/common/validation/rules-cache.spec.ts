import 'reflect-metadata';
import { getMetadataStorage, IsInt, IsString, MaxLength, validateSync } from 'class-validator';
import { cacheValidationRules } from './rules-cache';

class Base {
  @IsString()
  name!: string;
}

class Derived extends Base {
  @IsInt()
  count!: number;
}

/** Defined after the cache is installed: its rules are still its own and its ancestors'. */
function laterClass() {
  class Later extends Derived {
    @MaxLength(3)
    code!: string;
  }
  return Later;
}

function failing(instance: object): string[] {
  return validateSync(instance)
    .map((error) => error.property)
    .sort();
}

describe('cacheValidationRules', () => {
  const storage = getMetadataStorage();
  const original = storage.getTargetValidationMetadatas.bind(storage);
  let resolved = 0;

  beforeAll(() => {
    // Counts the resolutions the cache lets through to class-validator's own.
    storage.getTargetValidationMetadatas = (...args) => {
      resolved++;
      return original(...args);
    };
    cacheValidationRules();
  });

  afterAll(() => {
    storage.getTargetValidationMetadatas = original;
  });

  it('resolves a class once, then answers its rules, inherited ones included, from the cache', () => {
    const before = resolved;
    for (let i = 0; i < 5; i++) expect(failing(Object.assign(new Derived(), { name: 7, count: 'x' }))).toEqual(['count', 'name']);
    expect(failing(Object.assign(new Derived(), { name: 'ok', count: 1 }))).toEqual([]);
    expect(resolved - before).toBe(1);
  });

  it('keeps classes apart, and a class defined after it was installed gets all of its rules', () => {
    const Later = laterClass();
    expect(failing(Object.assign(new Later(), { name: 'ok', count: 1, code: 'long' }))).toEqual(['code']);
    expect(failing(Object.assign(new Later(), { name: 1, count: 1.5, code: 'ok' }))).toEqual(['count', 'name']);
    expect(failing(Object.assign(new Base(), { name: 'ok', count: 'not a rule of Base' }))).toEqual([]);
  });
});
