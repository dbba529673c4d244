import { readFile } from 'node:fs/promises';
import YAML from 'yaml';
import { type Business, BusinessSchema } from '../domain/index.js';

/** Read a business profile (YAML or JSON) and validate it; errors name the field and the problem. */
export async function readBusinessFile(path: string): Promise<Business> {
  const text = await readFile(path, 'utf8');
  let raw: unknown;
  try {
    raw = /\.json$/i.test(path) ? JSON.parse(text) : YAML.parse(text);
  } catch (err) {
    throw new Error(`${path} is not valid ${/\.json$/i.test(path) ? 'JSON' : 'YAML'}: ${(err as Error).message}`);
  }
  const parsed = BusinessSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `${path} is not a valid business profile:\n${parsed.error.issues.map((i) => `  - ${i.path.join('.') || '(root)'}: ${i.message}`).join('\n')}`,
    );
  }
  return parsed.data;
}
