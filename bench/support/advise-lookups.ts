import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, type MongoClient } from 'docjoin';
import type { AdviceReport, FieldAdvice } from '../../src/advise/recommend/advice-types';
import { runDocjoinCli } from '../../src/cli/docjoin';
import { gatewaySettingsOf, loadConfig } from '../../src/config/config';
import { DEMO_CONFIG, demoProjectOptions } from '../../test/support/demo-project';
import { captureIo } from '../../test/unit/cli/capture-io';

/** What `docjoin advise` said about reading the demo's joins by lookup, on a workload recorded by join. */
export interface LookupAdvice {
  /** The fields it advised to read by lookup, with the predicted effect. */
  readonly advised: readonly FieldAdvice[];
  /** `Type.field: why not`, for each lookup it considered and rejected. */
  readonly rejected: readonly string[];
  /** The advised fields' predicted change in MongoDB time per 1,000 operations, summed (ms). */
  readonly predictedMsPer1000: number;
}

/**
 * Records `queries` (each run `runs` times) as a workload through a gateway serving the demo project
 * on `dbName` as declared (its joins read by join), then runs `docjoin advise --reads-only` on it against
 * the same server (a lookup is what it may advise, not a snapshot's copies to write): the latency it
 * prices is the one it measures there. The database is only read.
 */
export async function adviseLookupsOnDemo(client: MongoClient, uri: string, dbName: string, queries: readonly string[], runs: number): Promise<LookupAdvice> {
  const folder = mkdtempSync(join(tmpdir(), 'docjoin-advise-lookups-'));
  try {
    const workloadFile = join(folder, 'workload.jsonl');
    const settings = gatewaySettingsOf(loadConfig({ PORT: '0', DOCJOIN_WORKLOAD: `file:${workloadFile}` }));
    const recording = await createGateway({ ...demoProjectOptions(), mongoClient: client, db: dbName, ...settings, listen: false, onWarning: () => undefined });
    try {
      for (const query of queries) {
        for (let run = 0; run < runs; run++) {
          const result = await recording.execute({ query });
          if (result.errors) throw new Error(`${query}: ${JSON.stringify(result.errors)}`);
        }
      }
    } finally {
      await recording.stop();
    }
    const adviceFile = join(folder, 'advice.json');
    const { io, err } = captureIo();
    const code = await runDocjoinCli(['advise', '--workload', workloadFile, '--mongo-uri', uri, '--db', dbName, '--config', DEMO_CONFIG, '--reads-only', '--json', adviceFile], {}, io);
    if (code !== 0) throw new Error(`docjoin advise exited ${code}: ${err()}`);
    const report = (JSON.parse(readFileSync(adviceFile, 'utf8')) as { advice: AdviceReport }).advice;
    const advised = report.fields.filter((field) => field.kind === 'read-by-lookup');
    return {
      advised,
      rejected: report.fields.filter((field) => field.rejected?.kind === 'read-by-lookup').map((field) => `${field.coordinate}: ${field.rejected!.because}`),
      predictedMsPer1000: advised.reduce((sum, field) => sum + field.effect.net!.commandMsPer1000Operations.after - field.effect.net!.commandMsPer1000Operations.before, 0),
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
