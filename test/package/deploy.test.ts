import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { tempDir } from '../helpers/index.js';

// The unit and the snippet are read from docs/deploy.md, so what is tested is what operators copy.
const doc = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
const block = (lang: string) => {
  const blocks = [...doc.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1]);
  assert.equal(blocks.length, 1, `docs/deploy.md has one ${lang} block`);
  return blocks[0];
};
const unit = block('ini');
const snippet = block('nginx');
const found = (tool: string, ...args: string[]) => spawnSync(tool, args).error === undefined;
// CI installs both tools (.ci/run); a machine without them skips with the reason.
const skipUnless = (tool: string, pkg: string) =>
  found(tool, '--version') || found(tool, '-v') ? false : `${tool} not found (Debian package ${pkg})`;

test('the unit’s environment is a valid server configuration, listening on loopback behind the proxy', () => {
  const env = Object.fromEntries([...unit.matchAll(/^Environment=(\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
  const config = loadConfig({}, env);
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.trustProxy, '127.0.0.1');
  assert.match(config.databaseUrl, /^\/var\/lib\/reviewcast\//);
  assert.match(unit, /^StateDirectory=reviewcast$/m);
  assert.match(unit, /^ExecStart=\/usr\/local\/bin\/reviewcast serve$/m);
});

test('systemd-analyze verify accepts the unit without a warning', { skip: skipUnless('systemd-analyze', 'systemd') }, () => {
  const dir = tempDir();
  // verify checks that ExecStart's program exists: point it at a stand-in where npm -g puts the bin.
  const bin = join(dir, 'reviewcast');
  writeFileSync(bin, '#!/bin/sh\n');
  chmodSync(bin, 0o755);
  const file = join(dir, 'reviewcast.service');
  writeFileSync(file, unit.replace('/usr/local/bin/reviewcast', bin));
  const r = spawnSync('systemd-analyze', ['verify', '--man=no', file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr.trim(), '', 'no warning (an unknown key or a bad value is only a warning)');
});

test('nginx -t accepts the snippet', { skip: skipUnless('nginx', 'nginx-light') || skipUnless('openssl', 'openssl') }, () => {
  const dir = tempDir();
  // A throwaway certificate where the snippet names one, and a main configuration that includes it.
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=reviews.example.com', '-keyout', key, '-out', cert],
    { stdio: 'pipe' },
  );
  const conf = snippet.replace('/etc/ssl/certs/reviews.example.com.pem', cert).replace('/etc/ssl/private/reviews.example.com.key', key);
  assert.notEqual(conf, snippet);
  writeFileSync(join(dir, 'reviewcast.conf'), conf);
  writeFileSync(
    join(dir, 'nginx.conf'),
    `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n  include ${dir}/reviewcast.conf;\n}\n`,
  );
  const r = spawnSync('nginx', ['-t', '-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /test is successful/);
  assert.doesNotMatch(r.stderr, /\[(warn|emerg|alert|crit)\]/);
});
