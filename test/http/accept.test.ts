import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { prefersHtml } from '../../src/http/index.js';

describe('content negotiation for the 404', () => {
  test('browsers get HTML; API clients, curl and no Accept get JSON', () => {
    assert.equal(prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'), true);
    assert.equal(prefersHtml('application/json'), false);
    assert.equal(prefersHtml('*/*'), false);
    assert.equal(prefersHtml(undefined), false);
    assert.equal(prefersHtml('application/json, text/html;q=0.5'), false);
    assert.equal(prefersHtml('text/html;q=0'), false);
  });
});
