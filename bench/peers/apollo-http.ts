import { ApolloServer, type BaseContext } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import type { IResolvers } from '@graphql-tools/utils';
import type { HttpPeer } from './peer-implementation';
import { publicTypeDefs } from './peer-schema';

/**
 * A hand-written peer as people deploy one: Apollo Server's standalone HTTP server on 127.0.0.1 (any
 * path, so `/graphql` too), the public SDL, the peer's resolvers and a fresh context per request.
 */
export async function serveApollo<TContext extends BaseContext>(resolvers: IResolvers, context: () => Promise<TContext>, close: () => Promise<void>): Promise<HttpPeer> {
  const server = new ApolloServer<TContext>({ typeDefs: publicTypeDefs(), resolvers, stopOnTerminationSignals: false });
  const { url } = await startStandaloneServer(server, { listen: { port: 0, host: '127.0.0.1' }, context });
  return {
    kind: 'http',
    port: Number(new URL(url).port),
    async stop() {
      await server.stop();
      await close();
    },
  };
}
