import { z } from 'zod';
import { HttpUrlSchema, SlugSchema } from './common.js';

export const VerticalSchema = z
  .enum(['home_services', 'senior_living', 'restaurant', 'local_business'])
  .describe('selects the aspect taxonomy');

const Named = z.object({
  id: SlugSchema,
  name: z.string().trim().min(1).max(120),
  aliases: z.array(z.string().trim().min(1).max(120)).default([]),
});

export const TechnicianSchema = Named.extend({ role: z.string().trim().max(120).nullable().default(null) });
export const ServiceSchema = Named;
const ServiceAreaSchema = z.object({
  id: SlugSchema,
  name: z.string().trim().min(1).max(120),
  kind: z.enum(['city', 'neighborhood', 'county', 'postal_code', 'region']).default('city'),
});

const AddressSchema = z.object({
  street_address: z.string().nullable().default(null),
  locality: z.string().nullable().default(null),
  region: z.string().nullable().default(null),
  postal_code: z.string().nullable().default(null),
  country: z.string().nullable().default(null),
});

/** schema.org-style opening hours, e.g. `{ days: ["Mo","Tu"], opens: "08:00", closes: "17:00" }`. */
const OpeningHoursSchema = z.object({
  days: z.array(z.enum(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'])).min(1),
  opens: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM'),
  closes: z.string().regex(/^([01]\d|2[0-4]):[0-5]\d$/, 'HH:MM'),
});

const ProfileSchema = z.object({ platform: z.string().min(1), url: HttpUrlSchema });

/** The business as served (`business` in /reviews.json, MCP `get_business`). */
export const BusinessSchema = z
  .object({
    id: SlugSchema,
    name: z.string().trim().min(1).max(200),
    description: z.string().nullable().default(null),
    vertical: VerticalSchema.default('home_services'),
    schema_type: z
      .string()
      .regex(/^[A-Z][A-Za-z]+$/, 'a schema.org type such as Plumber')
      .default('LocalBusiness'),
    url: HttpUrlSchema.nullable().default(null),
    telephone: z.string().nullable().default(null),
    email: z.email().nullable().default(null),
    address: AddressSchema.nullable().default(null),
    geo: z
      .object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
      .nullable()
      .default(null),
    hours: z.array(OpeningHoursSchema).default([]),
    service_areas: z.array(ServiceAreaSchema).default([]),
    services: z.array(ServiceSchema).default([]),
    technicians: z.array(TechnicianSchema).default([]),
    profiles: z.array(ProfileSchema).default([]),
    same_as: z.array(HttpUrlSchema).default([]),
  })
  .superRefine((b, ctx) => {
    for (const key of ['service_areas', 'services', 'technicians'] as const) {
      const seen = new Set<string>();
      b[key].forEach((item, i) => {
        if (seen.has(item.id)) ctx.addIssue({ code: 'custom', path: [key, i, 'id'], message: `duplicate id "${item.id}"` });
        seen.add(item.id);
      });
    }
  })
  .meta({ id: 'Business' });
export type Business = z.output<typeof BusinessSchema>;
export type BusinessInput = z.input<typeof BusinessSchema>;
