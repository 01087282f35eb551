import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEPLOYED_ENV, DEPLOYED_NODE_FLAGS } from './deployed-env';

/** The benchmarks measure the server as it is deployed: the same settings in all three places. */
describe('the environment of the deployed server', () => {
  const entries = Object.entries(DEPLOYED_ENV);

  it('npm start sets every variable the benchmarks start the server with', () => {
    const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts
      .start;
    for (const [name, value] of entries) expect(start).toContain(`${name}=${value} `);
    expect(start).toContain(`exec node ${DEPLOYED_NODE_FLAGS.join(' ')} dist/server/main.js`);
  });

  it('the Docker image sets them too', () => {
    const dockerfile = readFileSync('Dockerfile', 'utf8');
    const env = dockerfile.slice(dockerfile.lastIndexOf('\nENV '));
    for (const [name, value] of entries) expect(env).toMatch(new RegExp(`\\b${name}=${value}\\b`));
    expect(dockerfile).toContain(
      `CMD ${JSON.stringify(['node', ...DEPLOYED_NODE_FLAGS, 'dist/server/main.js'])}`,
    );
  });
});
