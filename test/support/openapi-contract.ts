import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

interface Operation {
  /** The registered document its `$ref`s resolve in. */
  documentId: string;
  method: string;
  pattern: RegExp;
  path: string;
  responses: Record<string, { headers?: Record<string, { required?: boolean; schema?: object }>; content?: Record<string, { schema?: object }> }>;
}

/**
 * The served OpenAPI document as a checker of live answers: every answer an e2e suite receives
 * from a documented operation must have a documented status, a body that validates against that
 * status's schema, and the headers the document calls required, each valid. The document is the
 * contract clients are generated from; this keeps it true.
 */
export class OpenApiContract {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly operations: Operation[] = [];
  private readonly validators = new Map<object, ValidateFunction>();
  /** Answers checked so far, in this process. */
  checked = 0;

  constructor(...documents: { paths: Record<string, Record<string, Operation['responses'] | object>> }[]) {
    addFormats(this.ajv);
    documents.forEach((document, index) => {
      // `$ref`s inside a document resolve against it as a whole.
      const id = `openapi${index}`;
      this.ajv.addSchema({ ...document, $id: id }, id);
      for (const [path, item] of Object.entries(document.paths)) {
        const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
        for (const [method, operation] of Object.entries(item)) {
          const responses = (operation as { responses: Operation['responses'] }).responses;
          this.operations.push({ method: method.toUpperCase(), pattern, path, responses, documentId: id });
        }
      }
    });
  }

  /** Problems with one answer; none when it is not a documented operation's. */
  check(method: string, url: string, status: number, headers: Headers, body: unknown): string[] {
    const pathname = new URL(url).pathname;
    const operation = this.operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(pathname));
    if (!operation) return [];
    this.checked++;
    const where = `${method} ${operation.path} → ${status}`;
    const response = operation.responses[String(status)];
    if (!response) return [`${where}: status not in the document (has ${Object.keys(operation.responses).join(', ')})`];
    const problems: string[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const value = headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`${where}: required header ${name} missing`);
        continue;
      }
      const schema = header.schema as { type?: string } | undefined;
      if (!schema) continue;
      const validate = this.validator(schema, operation.documentId);
      if (!validate(schema.type === 'integer' ? Number(value) : value))
        problems.push(`${where}: header ${name}=${value}: ${this.ajv.errorsText(validate.errors)}`);
    }
    const schema = response.content?.['application/json']?.schema;
    if (schema) {
      const validate = this.validator(schema, operation.documentId);
      if (!validate(body)) problems.push(`${where}: body: ${this.ajv.errorsText(validate.errors)}`);
    }
    return problems;
  }

  private validator(schema: object, documentId: string): ValidateFunction {
    let validate = this.validators.get(schema);
    if (!validate) {
      // Rewrite local refs to the registered document so nested $refs resolve.
      validate = this.ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${documentId}#/components/`)) as object);
      this.validators.set(schema, validate);
    }
    return validate;
  }
}

const contracts = new Map<string, Promise<OpenApiContract>>();

type Document = ConstructorParameters<typeof OpenApiContract>[0];

/** Both documents the app serves: the merchant API's and the rails' callbacks'. */
export async function servedDocuments(baseUrl: string): Promise<{ merchant: Document; rails: Document }> {
  const [merchant, rails] = await Promise.all(['/openapi.json', '/openapi.rails.json'].map(async (path) => (await fetch(`${baseUrl}${path}`)).json()));
  return { merchant: merchant as Document, rails: rails as Document };
}

/** The contract of the app at `baseUrl` (both its documents), fetched once per process. */
export function contractOf(baseUrl: string): Promise<OpenApiContract> {
  let contract = contracts.get(baseUrl);
  if (!contract) {
    contract = servedDocuments(baseUrl).then(({ merchant, rails }) => new OpenApiContract(merchant, rails));
    contracts.set(baseUrl, contract);
  }
  return contract;
}
