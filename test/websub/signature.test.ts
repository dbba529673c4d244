import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hubSignature, redactUrl, withQuery } from '../../src/websub/index.js';

describe('withQuery, signature, redaction', () => {
  test('withQuery keeps the callback query byte for byte', () => {
    assert.equal(withQuery('https://a.example/cb', { 'hub.mode': 'x' }), 'https://a.example/cb?hub.mode=x');
    assert.equal(withQuery('https://a.example/cb?t=a%20b+c', { 'hub.mode': 'x' }), 'https://a.example/cb?t=a%20b+c&hub.mode=x');
    assert.equal(
      withQuery('https://a.example/cb?', { 'hub.topic': 'https://r/x?y=1' }),
      'https://a.example/cb?hub.topic=https%3A%2F%2Fr%2Fx%3Fy%3D1',
    );
  });
  test('signature is sha256 HMAC hex of the body', () => {
    // RFC 4231 test case 2.
    assert.equal(
      hubSignature('Jefe', Buffer.from('what do ya want for nothing?')),
      'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });
  test('redactUrl drops the query', () => {
    assert.equal(redactUrl('https://a.example:8443/cb?token=secret'), 'https://a.example:8443/cb?…');
  });
});
