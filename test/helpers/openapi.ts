import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
  components: { schemas: Record<string, object> };
};

/**
 * Validates responses against the live OpenAPI document: every response a test receives is checked
 * against the schema the document declares for its path, method, status and media type.
 */
export class OpenApiValidator {
  private readonly ajv: InstanceType<typeof Ajv2020.default>;
  private readonly cache = new Map<string, ReturnType<InstanceType<typeof Ajv2020.default>['compile']>>();
  checked = 0;

  constructor(private readonly doc: Doc) {
    this.ajv = new Ajv2020.default({ strict: false, allErrors: true });
    addFormats.default(this.ajv);
    this.ajv.addSchema({ $id: 'openapi.json', components: doc.components });
  }

  private operation(path: string): string | null {
    for (const template of Object.keys(this.doc.paths)) {
      const re = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      if (re.test(path)) return template;
    }
    return null;
  }

  /** Throws when the response does not match the document. */
  validate(method: string, url: string, status: number, contentType: string | null, body: string): void {
    const path = new URL(url).pathname;
    const template = this.operation(path);
    if (!template) throw new Error(`${path} is not in the OpenAPI document`);
    const op = this.doc.paths[template][method.toLowerCase()];
    if (!op) throw new Error(`${method} ${template} is not in the OpenAPI document`);
    const response = op.responses[String(status)];
    if (!response) throw new Error(`${method} ${template} does not declare status ${status}`);
    this.checked++;
    if (!response.content || status === 304 || method === 'HEAD') return;
    const media = (contentType ?? '').split(';')[0].trim();
    const content = response.content[media];
    if (!content) throw new Error(`${method} ${template} ${status} does not declare ${media}`);
    if (!media.includes('json')) return;
    const key = `${template} ${method} ${status} ${media}`;
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile({ $ref: '#/$defs/s', $defs: { s: rewriteRefs(content.schema) } });
      this.cache.set(key, validate);
    }
    if (!validate(JSON.parse(body)))
      throw new Error(`${method} ${path} ${status}: ${this.ajv.errorsText(validate.errors, { separator: '\n' })}`);
  }
}

const rewriteRefs = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(schema).replace(/"#\/components\/schemas\//g, '"openapi.json#/components/schemas/'));
