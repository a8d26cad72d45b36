import { startDemoGateway } from './test/integration/gateway/support/demo-gateway';
(async () => {
  const demo = await startDemoGateway({ env: { DOCJOIN_MAX_ROUND_TRIPS: 'none', DOCJOIN_MAX_DOCUMENTS: 'none', DOCJOIN_MAX_DEPTH: 'none' } });
  const build = (levels: number) => {
    let body = 'name';
    for (let i = levels; i >= 1; i--) body = i % 2 === 1 ? `authors { ${body} }` : `books { ${body} }`;
    return `{ books(first: 1) { ${body} } }`;
  };
  for (const levels of (process.env.LEVELS ?? "10").split(",").map(Number)) {
    const r = await demo.gateway.execute({ query: build(levels) });
    const c = r.cost!;
    console.log(levels + 1, Math.round(process.memoryUsage().heapUsed / 1e6), 'MB', 'measured', c.roundTrips, c.documents, 'estimated rt', c.estimatedRoundTrips, r.errors?.[0]?.message?.slice(0, 120) ?? '');
  }
  await demo.stop();
})();
