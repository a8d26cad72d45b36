import path from 'node:path';
import { packageFilesLoadedBy } from '../../../support/package-files-loaded';

const GATEWAY = path.join(__dirname, '../../../../src/gateway/index.ts');
const IDE = path.join(__dirname, '../../../../src/gateway/http/ide.ts');

describe("the IDE's static file server", () => {
  it('is loaded only once IDE routes are made: a production gateway (landingPage "none") does not carry it', () => {
    expect(packageFilesLoadedBy(`require(${JSON.stringify(GATEWAY)});`, 'serve-static')).toBe(0);
    const routes = `require(${JSON.stringify(IDE)}).createIdeRoutes({ endpoint: '/graphql', defaultQuery: '{ __typename }', strategyExample: undefined });`;
    expect(packageFilesLoadedBy(routes, 'serve-static')).toBe(1);
  });
});
