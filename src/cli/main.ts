import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import type { AnalyseReviews, Format } from '../ingest/index.js';
import type { Store } from '../store/index.js';

// src/cli and dist/cli are both two levels below the package root.
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
// Each command imports what it needs when it runs, so `--help` and the light commands do not load the
// server, the store and the language model first.
const program = new Command('reviewcast')
  .version(version)
  .description('Publish one business’s verified reviews and insights over REST, feeds, MCP and WebSub.');

/** The CLI reads the same configuration as the server, so it writes into the database a running server uses. */
async function openStore(opts: { databaseUrl?: string }) {
  const [{ loadConfig }, { Store }] = await Promise.all([import('../config.js'), import('../store/index.js')]);
  const config = loadConfig({ DATABASE_URL: opts.databaseUrl });
  return Store.open(config.databaseUrl);
}

/** Run one command against the store and always close it. */
async function withStore<T>(opts: { databaseUrl?: string }, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(opts);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
/** A review the engine could not read: said on stderr (its analysis is its rating's and title's; see analyzeOrRate). */
const reportAnalysisFailure = (reviewId: string, error: string) =>
  console.error(
    `warning: review ${reviewId}: the engine could not read its text; its analysis is from its rating and title alone\n  ${error}`,
  );

/**
 * The catalog's analyzer running this engine, for the commands that analyse. The engine's version is
 * read at once (it keys the analyses an import plans); the analyzer (the catalog, the larger part) is
 * loaded when first asked to analyse: an import that changes nothing never loads it, and one that does
 * has announced its write by then, so a running server's take-over starts that much sooner.
 */
async function importAnalyser(): Promise<AnalyseReviews> {
  const { engine } = await import('../insights/index.js');
  let analyser: Promise<AnalyseReviews> | null = null;
  return {
    engine: engine.version,
    async analyse(...args) {
      analyser ??= import('../catalog/index.js').then(({ analyseReviews }) => analyseReviews(engine, reportAnalysisFailure));
      return (await analyser).analyse(...args);
    },
  };
}

/**
 * A batch job (import, analyze, sync) lowers its whole process before it loads anything: a server on the
 * same machine then answers requests first, also while this process loads and compiles its modules.
 */
async function asBatch() {
  const { lowerProcessPriority } = await import('../threads/index.js');
  lowerProcessPriority();
}

const dbOption = () =>
  new Option('--database-url <url>', 'SQLite file or postgres:// URL (default: $DATABASE_URL or ./data/reviewcast.db)');

program
  .command('serve')
  .description('serve the public interface (default command of npm start)')
  .option('--port <port>', 'listen port ($PORT, default 3000)')
  .option('--host <host>', 'listen address ($HOST, default 0.0.0.0)')
  .option('--public-base-url <url>', 'absolute base URL used in feeds and links ($PUBLIC_BASE_URL)')
  .addOption(
    new Option('--role <role>', 'api: HTTP surfaces; worker: hub deliveries; all: both ($REVIEWCAST_ROLE, default all)').choices([
      'api',
      'worker',
      'all',
    ]),
  )
  .addOption(dbOption())
  // Before anything loads: it may start this process again (see memory-settings.ts).
  .hook('preAction', async () => (await import('./memory-settings.js')).fixMemorySettings())
  .action(async (opts) => {
    const [{ startServer }, { loadConfig }, { processLogger }] = await Promise.all([
      import('../app/index.js'),
      import('../config.js'),
      import('./logger.js'),
    ]);
    const settings = {
      PORT: opts.port,
      HOST: opts.host,
      PUBLIC_BASE_URL: opts.publicBaseUrl,
      DATABASE_URL: opts.databaseUrl,
      REVIEWCAST_ROLE: opts.role,
    };
    const server = await startServer(settings, { logger: processLogger(loadConfig(settings).logLevel) });
    const shutdown = (signal: string) => {
      server.log.info({ signal }, 'shutting down: finishing in-flight requests');
      server.close().then(
        () => process.exit(0),
        (err) => {
          server.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
  });

const importCommand = program
  .command('import')
  .description('import reviews from a file (one transaction; re-importing the same file changes nothing)')
  .argument('<file>', 'JSON, NDJSON, CSV or a Google Business Profile API export')
  // Checked by the action: the list of formats lives in the importer, which --help does not load.
  .option('--format <format>', 'json, ndjson, csv or google (detected when omitted)')
  .option('--sync', 'unpublish reviews of the imported sources that are absent from the file')
  .option('--skip-invalid', 'write the valid rows and report the invalid ones (default: write nothing if any row is invalid)')
  .option('--no-analyze', 'skip the sentiment analysis of new and changed reviews (the server does it when it loads them)')
  .addOption(dbOption())
  .hook('preAction', asBatch)
  .action(async (file: string, opts) => {
    const [{ FORMATS, ImportFileError, describeCleaning, formatRowError, importFile }, { progress }] = await Promise.all([
      import('../ingest/index.js'),
      import('./progress.js'),
    ]);
    if (opts.format !== undefined && !FORMATS.includes(opts.format))
      importCommand.error(
        `error: option '--format <format>' argument '${opts.format}' is invalid. Allowed choices are ${FORMATS.join(', ')}.`,
      );
    await withStore(opts, async (store) => {
      try {
        const bar = progress('importing');
        const abar = progress('analysing');
        const started = performance.now();
        // The analyses of what the import writes are made by the catalog's analyzer and stored in the same
        // transaction (--no-analyze: the server makes them).
        const analyze = opts.analyze ? await importAnalyser() : undefined;
        const report = await importFile(store, file, {
          format: opts.format as Format | undefined,
          sync: opts.sync,
          skipInvalid: opts.skipInvalid,
          analyze,
          onAnalysisProgress: abar.update,
          // Analysis comes first; its bar ends when the writing starts.
          onProgress: (done, total) => {
            abar.stop();
            bar.update(done, total);
          },
        });
        abar.stop();
        bar.stop();
        for (const e of report.invalid) console.error(`invalid: ${formatRowError(e)}`);
        if (!report.written) {
          console.error(
            `${report.invalid.length} invalid row(s) in ${file}; nothing was imported (use --skip-invalid to import the valid rows).`,
          );
          process.exitCode = 1;
          return;
        }
        const secs = (performance.now() - started) / 1000;
        console.log(
          `${report.format}: ${report.added} added, ${report.updated} updated, ${report.unchanged} unchanged, ${report.invalid.length} invalid${opts.sync ? `, ${report.unpublished} unpublished` : ''}` +
            ` — ${report.revision ? `revision ${report.revision.id}` : 'no change'} in ${secs.toFixed(1)} s`,
        );
        for (const line of describeCleaning(report.cleaned)) console.log(`cleaned: ${line}`);
        if (report.syncSkipped)
          console.error('--sync was not applied: some rows are invalid, and an invalid row may still be a live review.');
        if (report.invalid.length) process.exitCode = 1;
      } catch (err) {
        if (!(err instanceof ImportFileError)) throw err;
        for (const e of err.errors) console.error(`invalid: ${formatRowError(e)}`);
        console.error(`${file} could not be read; nothing was imported.`);
        process.exitCode = 1;
      }
    });
  });

const business = program.command('business').description('the business profile');
business
  .command('set')
  .description('validate a YAML or JSON business profile and store it')
  .argument('<file>')
  .addOption(dbOption())
  .action(async (file: string, opts) => {
    const { readBusinessFile } = await import('./business.js');
    const profile = await readBusinessFile(file);
    await withStore(opts, async (store) => {
      const revision = await store.setBusiness(profile, new Date().toISOString());
      console.log(revision ? `business profile "${profile.name}" stored (revision ${revision.id})` : 'business profile unchanged');
    });
  });
business
  .command('show')
  .description('print the stored business profile as JSON')
  .addOption(dbOption())
  .action(async (opts) => {
    await withStore(opts, async (store) => {
      console.log(JSON.stringify(await store.getBusiness(), null, 2));
    });
  });

const demoCommand = program
  .command('demo')
  .description('write a deterministic demo review set (and optionally its business profile)')
  .option('--reviews <n>', 'number of reviews', '2000')
  .option('--seed <n>', 'random seed', '20240601')
  .requiredOption('--out <file>', 'output file (.ndjson or .json)')
  .option('--business-out <file>', 'also write the demo business profile (JSON)')
  .action(async (opts) => {
    const { writeDemoFile, demoBusiness } = await import('../demo/index.js');
    const reviews = Number(opts.reviews);
    if (!Number.isSafeInteger(reviews) || reviews < 0)
      demoCommand.error(`error: --reviews must be a whole number ≥ 0, not '${opts.reviews}'`);
    // Streamed: a million reviews is more text than one JavaScript string can hold.
    await writeDemoFile(opts.out, { reviews, seed: Number(opts.seed) });
    if (opts.businessOut) await writeFile(opts.businessOut, JSON.stringify(demoBusiness(), null, 2));
    console.log(`wrote ${reviews} demo reviews to ${opts.out}`);
  });

const subscriptions = program.command('subscriptions').description('WebSub subscriptions held by the hub');
subscriptions
  .command('list')
  .description('list active subscriptions (topic, callback, lease expiry, failures)')
  .addOption(dbOption())
  .action(async (opts) => {
    const { formatSubscriptions, listSubscriptions } = await import('../websub/index.js');
    await withStore(opts, async (store) => {
      console.log(formatSubscriptions(await listSubscriptions(store)));
    });
  });
subscriptions
  .command('remove')
  .description('remove a subscription by id, or every subscription of a callback URL')
  .argument('<id-or-callback>')
  .addOption(dbOption())
  .action(async (target: string, opts) => {
    const { removeSubscription } = await import('../websub/index.js');
    await withStore(opts, async (store) => {
      const removed = await removeSubscription(store, /^\d+$/.test(target) ? Number(target) : target);
      console.log(`removed ${removed} subscription(s)`);
      if (removed === 0) process.exitCode = 1;
    });
  });

program
  .command('analyze')
  .description('analyse reviews that have no current analysis (new, changed, or after an engine upgrade)')
  .addOption(dbOption())
  .hook('preAction', asBatch)
  .action(async (opts) => {
    const [{ analyzePending }, { engine }, { progress }] = await Promise.all([
      import('../catalog/index.js'),
      import('../insights/index.js'),
      import('./progress.js'),
    ]);
    await withStore(opts, async (store) => {
      const bar = progress('analysing');
      const r = await analyzePending(store, engine, { onProgress: bar.update, onFailure: reportAnalysisFailure });
      bar.stop();
      console.log(`analysed ${r.analysed} published review(s) that had no current analysis`);
    });
  });

const sourcesCommand = program
  .command('sources')
  .description('review platforms synced on a schedule (Google Business Profile, Trustpilot)');
const credentialFlags = (c: Command) =>
  c
    .option('--credentials-file <path>', 'read the secrets from this JSON file (mode 600) instead of environment variables')
    .option('--api-base <url>', 'the platform API base URL (default: the platform’s public API)');
const addCommand = sourcesCommand.command('add').description('add a review source: `sources add google …` or `sources add trustpilot …`');
addCommand.addCommand(
  credentialFlags(
    new Command('google')
      .description('Google Business Profile (OAuth 2.0 refresh token)')
      .requiredOption('--account <id>', 'account id (accounts/{id})')
      .requiredOption('--location <id>', 'location id (locations/{id})')
      .requiredOption('--client-id <id>', 'OAuth 2.0 client id')
      .option('--client-secret-env <name>', 'env var holding the OAuth client secret', 'GOOGLE_CLIENT_SECRET')
      .option('--refresh-token-env <name>', 'env var holding the refresh token', 'GOOGLE_REFRESH_TOKEN')
      .option('--token-url <url>', 'OAuth token endpoint (default https://oauth2.googleapis.com/token)'),
  )
    .addOption(dbOption())
    .action((opts) => runAdd('google', opts)),
);
addCommand.addCommand(
  credentialFlags(
    new Command('trustpilot')
      .description('Trustpilot business-unit reviews (API key)')
      .requiredOption('--business-unit <id>', 'business unit id')
      .option('--api-key-env <name>', 'env var holding the API key', 'TRUSTPILOT_API_KEY'),
  )
    .addOption(dbOption())
    .action((opts) => runAdd('trustpilot', opts)),
);
async function runAdd(kind: 'google' | 'trustpilot', opts: { databaseUrl?: string } & Record<string, string | undefined>) {
  const { addSource } = await import('./sources.js');
  await withStore(opts, async (store) => console.log(await addSource(store, kind, opts as Parameters<typeof addSource>[2])));
}
sourcesCommand
  .command('list')
  .description('list review sources: settings (secrets redacted), last success, last error, reviews seen')
  .addOption(dbOption())
  .action(async (opts) => {
    const { listSources } = await import('./sources.js');
    await withStore(opts, async (store) => console.log(await listSources(store)));
  });
sourcesCommand
  .command('remove')
  .description('remove a review source (its reviews stay; a file import or another source may still hold them)')
  .argument('<source>', 'google or trustpilot')
  .addOption(dbOption())
  .action(async (name: string, opts) => {
    await withStore(opts, async (store) => {
      const removed = await store.sources.remove(name);
      console.log(removed ? `source ${name} removed` : `no source named ${name}`);
      if (!removed) process.exitCode = 1;
    });
  });
sourcesCommand
  .command('auth')
  .description('authorise the Google source: prints the consent URL; with --code, stores the refresh token in the credentials file')
  .argument('<source>', 'google')
  .option('--code <code>', 'the authorization code Google returned to the redirect URI')
  .option('--redirect-uri <uri>', 'the redirect URI registered for the OAuth client', 'http://localhost:8085/')
  .addOption(dbOption())
  .action(async (name: string, opts) => {
    const [{ googleConsentUrl, googleExchangeCode, parseSettings, SyncError }, { syncDeps }] = await Promise.all([
      import('../connectors/index.js'),
      import('./sources.js'),
    ]);
    await withStore(opts, async (store) => {
      const row = await store.sources.get(name);
      if (row?.kind !== 'google') throw new Error(`${name}: no Google source; add it first with \`reviewcast sources add google …\``);
      const settings = parseSettings(row);
      if (settings.kind !== 'google') return;
      if (!opts.code) {
        console.log(
          `Open this URL, approve, and run this command again with --code <code>:\n${googleConsentUrl(settings, { redirectUri: opts.redirectUri })}`,
        );
        return;
      }
      const { readFile } = await import('node:fs/promises');
      let secret =
        process.env[settings.credentials.from === 'env' ? (settings.credentials.names.client_secret ?? 'GOOGLE_CLIENT_SECRET') : ''];
      if (settings.credentials.from === 'file')
        secret = JSON.parse(await readFile(settings.credentials.path, 'utf8').catch(() => '{}')).client_secret;
      if (!secret) throw new SyncError(name, 'no client secret: put "client_secret" in the credentials file (or set the env var)');
      await googleExchangeCode(name, settings, secret, opts.code, { redirectUri: opts.redirectUri, api: syncDeps(store, console).api });
      console.log(`${name}: refresh token stored in the credentials file; the next sync uses it`);
    });
  });

program
  .command('sync')
  .description('sync review sources now (all, or the one named), whether due or not')
  .argument('[source]', 'google or trustpilot')
  .option('--full', 'a full reconciliation: also unpublish reviews the platform no longer has')
  .addOption(dbOption())
  .hook('preAction', asBatch)
  .action(async (name: string | undefined, opts) => {
    const [{ syncNow }, { syncDeps }, { processLogger }, { loadConfig }] = await Promise.all([
      import('../connectors/index.js'),
      import('./sources.js'),
      import('./logger.js'),
      import('../config.js'),
    ]);
    await withStore(opts, async (store) => {
      const log = processLogger(loadConfig().logLevel).child({ module: 'sync' });
      const results = await syncNow(syncDeps(store, log), name, { full: opts.full });
      if (results.length === 0) console.log('no review sources (add one with `reviewcast sources add google|trustpilot`)');
      for (const r of results) {
        if ('busy' in r) {
          console.log(`${r.source}: another worker is syncing it right now`);
          continue;
        }
        if (!r.ok) {
          console.error(r.error);
          process.exitCode = 1;
          continue;
        }
        console.log(
          `${r.source}: ${r.full ? 'full reconciliation' : 'incremental'}, ${r.pages} page(s), ${r.seen} review(s) read: ${r.added} added, ${r.updated} updated, ${r.unpublished} unpublished — ${r.revision ? `revision ${r.revision}` : 'no change'}`,
        );
      }
    });
  });

program.parseAsync(process.argv).catch((err) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
