import type { CommandStartedEvent, MongoClient } from 'mongodb';

/** The names of the commands `client` sends while `run` runs, in order, with what `run` resolved to. */
export async function commandsSentDuring<T>(client: MongoClient, run: () => Promise<T>): Promise<{ sent: string[]; result: T }> {
  const sent: string[] = [];
  const onStarted = (event: CommandStartedEvent) => void sent.push(event.commandName);
  client.on('commandStarted', onStarted);
  try {
    return { sent, result: await run() };
  } finally {
    client.off('commandStarted', onStarted);
  }
}
