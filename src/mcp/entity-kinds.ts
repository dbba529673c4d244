import type { Catalog } from '../catalog/index.js';
import type { EntityInsight, SearchParam } from '../domain/index.js';

/** The two kinds of named entity of a business profile that tools, prompts and resources expose alike. */
export type EntityKind = 'technician' | 'service';
export const ENTITY_KINDS = ['technician', 'service'] as const satisfies readonly EntityKind[];

/** The profile type of each kind: technicians carry a role, services do not. */
export type ProfileOf<K extends EntityKind> = (K extends 'technician'
  ? Catalog['business']['technicians']
  : Catalog['business']['services'])[number];

interface EntityKindSpec<K extends EntityKind> {
  profiles(c: Catalog): readonly ProfileOf<K>[];
  matcher(c: Catalog): Catalog['attribution']['technicians'];
  stats(c: Catalog): readonly EntityInsight[];
  /** The search filter that selects the reviews mentioning one. */
  searchParam: SearchParam;
  promptTitle: string;
  resourceTitle: string;
}

/** What differs between the kinds, as data: everything else is written once for both. */
export const KIND: { [K in EntityKind]: EntityKindSpec<K> } = {
  technician: {
    profiles: (c) => c.business.technicians,
    matcher: (c) => c.attribution.technicians,
    stats: (c) => c.insights.entities.technicians,
    searchParam: 'mentions_technician',
    promptTitle: 'How customers rate a technician',
    resourceTitle: 'Technician',
  },
  service: {
    profiles: (c) => c.business.services,
    matcher: (c) => c.attribution.services,
    stats: (c) => c.insights.entities.services,
    searchParam: 'mentions_service',
    promptTitle: 'How customers rate a service',
    resourceTitle: 'Service',
  },
};

/** The search filter for the reviews that mention one entity. */
export const mentioning = (kind: EntityKind, id: string) => ({ [KIND[kind].searchParam]: id });
