import { DEMO_EPOCH_MS, MINUTE_MS } from '../demo-clock';
import type { HostDoc, HostSnapshot, LogMessageDoc } from '../demo-documents';
import { LOG_MESSAGES_PER_HOST, RECENT_LOGS_LIMIT } from '../demo-sizes';
import { demoIdSequence } from '../deterministic-object-ids';
import { createPrng, seedFromLabel, type Prng } from '../prng';
import { HOST_WORDS, LOG_TEMPLATES } from '../vocabulary';

/**
 * Hosts and their log messages (the seeds' one-to-squillions). Each message keeps a snapshot of its
 * host's {id, name, ipaddr}; each host embeds copies of its newest messages, newest first, bounded.
 *
 * Time is cut into one-minute slots dealt round-robin to the hosts, oldest first, with the newest
 * slot ending at the demo epoch. So every message time is unique, each host's messages are strictly
 * ordered, and _id order equals time order.
 */
export function generateHostsLogMessages(counts: { hosts: number }): {
  hosts: HostDoc[];
  logMessages: LogMessageDoc[];
} {
  const rng = createPrng(seedFromLabel('hosts'));
  const nextHostId = demoIdSequence('hosts');
  const hosts: HostDoc[] = [];
  for (let i = 0; i < counts.hosts; i++) {
    hosts.push({ _id: nextHostId(), name: hostName(i), ipaddr: hostIpaddr(i), recentLogs: [] });
  }

  const nextMessageId = demoIdSequence('logMessages');
  const totalSlots = counts.hosts * LOG_MESSAGES_PER_HOST;
  const firstSlotMs = DEMO_EPOCH_MS - totalSlots * MINUTE_MS;
  const logMessages: LogMessageDoc[] = [];
  for (let slot = 0; slot < totalSlots; slot++) {
    const host = hosts[slot % counts.hosts] as HostDoc;
    const snapshot: HostSnapshot = { id: host._id, name: host.name, ipaddr: host.ipaddr };
    logMessages.push({
      _id: nextMessageId(),
      time: new Date(firstSlotMs + slot * MINUTE_MS + rng.int(0, MINUTE_MS - 1)),
      message: logText(rng),
      host: snapshot,
    });
  }

  // The last RECENT_LOGS_LIMIT rounds of slots hold each host's newest messages.
  const recentFrom = Math.max(0, totalSlots - RECENT_LOGS_LIMIT * counts.hosts);
  for (let slot = totalSlots - 1; slot >= recentFrom; slot--) {
    const message = logMessages[slot] as LogMessageDoc;
    (hosts[slot % counts.hosts] as HostDoc).recentLogs.push(copyLogMessage(message));
  }
  return { hosts, logMessages };
}

/** "goofy.example.com", "mickey.example.com", …, then "goofy-2.example.com" … */
function hostName(index: number): string {
  const round = Math.floor(index / HOST_WORDS.length);
  return `${HOST_WORDS[index % HOST_WORDS.length]}${round === 0 ? '' : `-${round + 1}`}.example.com`;
}

/** Unique private addresses: 10.66.0.1 … 10.66.0.250, 10.66.1.1 …, then 10.67.… */
function hostIpaddr(index: number): string {
  const last = (index % 250) + 1;
  const third = Math.floor(index / 250) % 256;
  const second = 66 + Math.floor(index / (250 * 256));
  return `10.${second}.${third}.${last}`;
}

function logText(rng: Prng): string {
  const template = rng.pick(LOG_TEMPLATES);
  if (!template.includes('{')) return template;
  return template
    .replace('{pct}', String(rng.int(50, 99)))
    .replace('{load}', rng.float(0.1, 16, 2).toFixed(2))
    .replace('{n}', String(rng.int(1, 120)))
    .replace('{ms}', String(rng.int(2, 2_000)));
}

function copyLogMessage(message: LogMessageDoc): LogMessageDoc {
  return { ...message, time: new Date(message.time.getTime()), host: { ...message.host } };
}
