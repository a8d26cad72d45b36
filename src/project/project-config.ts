import type { IResolvers } from '@graphql-tools/utils';
import type { Db } from 'mongodb';
import type { ShardKeys } from '../sharding/shard-targeting';
import type { AuthOptions, GatewaySettings, WriteOptions, MutationWritePlans } from '../gateway';

/** What a project's seed function is told. */
export interface SeedOptions {
  /** `--seed-scale` / DOCJOIN_SEED_SCALE (default 1), for seeds that can make more or less data. */
  readonly scale: number;
  /** Report progress per collection; the CLI prints it in place on a terminal. */
  readonly onProgress: (collection: string, inserted: number, total: number) => void;
}

/**
 * `docjoin.config.{ts,mts,mjs,js,cjs,json}`: one project's schema, resolvers, database and settings.
 * Paths are relative to the config file. Flags and environment variables win over what it says.
 */
export interface DocjoinProjectConfig {
  /** SDL files, or folders whose `*.graphql` files are all read (default: "schema"). */
  readonly schema?: string | readonly string[];
  /** Resolvers for root fields, scalars and abstract types (relation and stored fields need none). */
  readonly resolvers?: IResolvers | readonly IResolvers[];
  /** What each hand-written mutation's write unit does, by Mutation field name. */
  readonly writePlans?: MutationWritePlans;
  /**
   * How mutations write: `transactions: 'auto'` (default) runs each mutation's writes in one transaction
   * when MongoDB supports them; `'never'` writes them in order without one (faster, not atomic: a crash
   * mid-way leaves drift that `docjoin reconcile --fix` repairs).
   */
  readonly writes?: WriteOptions;
  /**
   * Who the viewer is (README, "Securing docjoin"): `{ jwt: { secret: process.env.DOCJOIN_JWT_SECRET } }`
   * verifies `Authorization: Bearer` tokens (or `publicKey`, `jwksUrl`; `issuer`, `audience`,
   * `clockToleranceSeconds`); `roleClaim` (default "role") and `anonymousRole` (default "anonymous")
   * pick the role whose `@access` rules apply.
   */
  readonly auth?: AuthOptions;
  /** Where the data is. No `uri` (and no MONGODB_URI): docjoin starts its embedded server. */
  /**
   * `shardKeys`: the shard key of each collection of a sharded cluster, as `sh.shardCollection` takes it
   * (`{ logMessages: { 'host.id': 'hashed' } }`): `explain --run` says how the cluster would route each
   * command, and `advise` flags joins it would broadcast.
   */
  readonly mongodb?: { readonly uri?: string; readonly db?: string; readonly shardKeys?: ShardKeys };
  /** How the gateway serves: port, host, cors, landingPage, limits, … (createGateway's settings). */
  readonly server?: GatewaySettings;
  /**
   * `docjoin codegen`: where the public schema goes, your graphql-codegen config (optional), and whether
   * the public schema carries the IBM cost directives (`@cost`, `@listSize`) docjoin's storage implies,
   * for a router that prices operations before sending them (default false).
   */
  readonly codegen?: { readonly publicSchema?: string; readonly config?: string; readonly costDirectives?: boolean };
  /**
   * Fills a database with sample data: docjoin runs it on its embedded server (no MongoDB URI) before
   * serving, and `docjoin seed --mongo-uri URI` runs it against yours. It creates the indexes it needs.
   */
  readonly seed?: (db: Db, options: SeedOptions) => Promise<unknown>;
}

/** Types a config file's default export: `export default defineConfig({ schema: 'schema' })`. */
export function defineConfig(config: DocjoinProjectConfig): DocjoinProjectConfig {
  return config;
}
