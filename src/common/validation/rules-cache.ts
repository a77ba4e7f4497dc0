import { getMetadataStorage, MetadataStorage } from 'class-validator';

type Rules = ReturnType<MetadataStorage['getTargetValidationMetadatas']>;

let installed = false;

/**
 * class-validator works out a class's rules on every validation, testing each class it knows for
 * being an ancestor of it (typestack/class-validator#2686): with this service's hundreds of DTOs,
 * that was a third of a payment intent's validation. A class's rules are all registered while it
 * and its ancestors are defined, before any instance can be validated, and never change after: so
 * the answer is kept per class and per options. Called once, at a process's start.
 */
export function cacheValidationRules(): void {
  if (installed) return;
  installed = true;
  const storage = getMetadataStorage();
  const resolve = storage.getTargetValidationMetadatas.bind(storage);
  const cache = new WeakMap<object, Map<string, Rules>>();
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0000') ?? ''}`;
    let byOptions = cache.get(target);
    if (!byOptions) cache.set(target, (byOptions = new Map<string, Rules>()));
    let rules = byOptions.get(key);
    if (!rules) byOptions.set(key, (rules = resolve(target, schema, always, strictGroups, groups)));
    return rules;
  };
}
