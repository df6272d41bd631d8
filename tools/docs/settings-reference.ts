/**
 * The reference of passepartout.json (docs/reference/settings.md), from the schemas the core reads it with
 * (SETTINGS in org/core/config.org): each top-level key and what it holds, and each field of its entries with
 * the value it takes, whether it must be there or what it is when it is not, and its description.
 */
import {z} from 'zod'
import {SETTINGS, type Setting} from '../../generated/core/config.ts'
import {settingUndescribed} from '../messages/build.ts'
import {banner, code, table} from './markdown.ts'

/** The part of a JSON Schema (as zod writes it) the reference says in words. */
interface JsonSchema {
  type?: string
  format?: string
  const?: unknown
  minimum?: number
  exclusiveMinimum?: number
  minItems?: number
  items?: JsonSchema
  additionalProperties?: JsonSchema | boolean
  anyOf?: JsonSchema[]
  default?: unknown
  description?: string
  properties?: Record<string, JsonSchema>
  required?: string[]
}

/** What a value of SCHEMA is, in a few words: `integer ≥ 256`, `true, or list of strings`. */
function valueOf(schema: JsonSchema): string {
  if (schema.anyOf) return schema.anyOf.map(valueOf).join(', or ')
  if (schema.const !== undefined) return code(JSON.stringify(schema.const))
  switch (schema.type) {
    case 'string':
      return schema.format === 'uri' ? 'URL' : 'string'
    case 'integer':
    case 'number': {
      if (schema.exclusiveMinimum !== undefined) return `${schema.type} > ${schema.exclusiveMinimum}`
      return schema.minimum !== undefined ? `${schema.type} ≥ ${schema.minimum}` : schema.type
    }
    case 'array':
      return `list of ${valueOf(schema.items ?? {})}s${schema.minItems ? ` (${schema.minItems} at least)` : ''}`
    case 'object':
      return typeof schema.additionalProperties === 'object'
        ? `object: name → ${valueOf(schema.additionalProperties)}`
        : 'object'
    default:
      return schema.type ?? 'any value'
  }
}

/** The fields of an entry of SCHEMA, a row each: key, value, required or default, description. */
function fieldsTable(schema: z.ZodObject): string {
  const json = z.toJSONSchema(schema, {io: 'input'}) as JsonSchema
  const rows = Object.entries(json.properties ?? {}).map(([key, field]) => {
    const presence = json.required?.includes(key)
      ? 'required'
      : field.default !== undefined
        ? `default ${code(JSON.stringify(field.default))}`
        : 'optional'
    if (!field.description) throw new Error(settingUndescribed(key))
    return [code(key), valueOf(field), presence, field.description]
  })
  return table(['key', 'value', '', 'what it holds'], rows)
}

function section(key: string, setting: Setting): string {
  const parts = [`## ${key}`, '', `${setting.holds[0]!.toUpperCase()}${setting.holds.slice(1)}.`]
  if (setting.value)
    parts.push('', `Its value: ${valueOf(z.toJSONSchema(setting.value, {io: 'input'}) as JsonSchema)}.`)
  for (const [kind, schema] of Object.entries(setting.entries ?? {}))
    parts.push('', `Each entry, ${kind}:`, '', fieldsTable(schema))
  return parts.join('\n')
}

export function settingsReference(): string {
  const keys = Object.entries(SETTINGS) as [string, Setting][]
  return `# Settings of passepartout.json

${banner('the schemas of org/core/config.org (SETTINGS)')}

\`passepartout.json\`, at the project's root beside \`package.json\`, is JSON with comments and trailing commas, as
\`tsconfig.json\` is, and holds no secret: a key is named by the variable that holds it. It is read when the core
starts. Each mistake is said at its line and column (\`config/invalid\`) and costs only the entry that holds it.
How the settings work together, and those of \`.env\` and \`package.json\`: [Configuration](../configuration.md).

${table(
  ['key', 'what it holds'],
  keys.map(([key, setting]) => [`[${code(key)}](#${key.toLowerCase()})`, setting.holds]),
)}

${keys.map(([key, setting]) => section(key, setting)).join('\n\n')}
`
}
