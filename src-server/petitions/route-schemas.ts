/** Pieces of route schemas shared by the public petition routes (OpenAPI tags, params); problem replies come from http/route-contract.ts. */
import { z } from 'zod';
import { API_TAGS } from '../http/openapi-document.ts';
import { PetitionId } from '../../src-shared/domain/schemas.ts';

export const PETITIONS_TAG = API_TAGS.petitions.name;
export const SIGNING_TAG = API_TAGS.signing.name;
export const SITE_TAG = API_TAGS.statistics.name;

/** Canonical digits only (src-shared's strict id), so '1e3', ' 12' or '0x10' are refused rather than read as some other petition. */
export const PetitionIdParams = z.strictObject({ id: PetitionId });

