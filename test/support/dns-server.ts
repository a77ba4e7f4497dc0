import dns2 from 'dns2';

const { Packet } = dns2;

/** A name's answers: IPv4 and IPv6 addresses (either may be empty). */
export interface Records {
  a?: string[];
  aaaa?: string[];
}

/**
 * A real DNS server on a free loopback UDP port, answering from `zone`, which a suite may change
 * between questions (a name that resolves elsewhere the second time: DNS rebinding). Names not
 * in the zone get no answer.
 */
export async function startDnsServer(zone: Map<string, Records>): Promise<{ server: string; asked: string[]; close(): Promise<void> }> {
  const asked: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      asked.push(question.name);
      const records = zone.get(question.name.toLowerCase());
      const answer = (type: number, address: string) =>
        ({ name: question.name, type, class: Packet.CLASS.IN, ttl: 0, address }) as unknown as (typeof response.answers)[number];
      if (question.type === Packet.TYPE.A) for (const address of records?.a ?? []) response.answers.push(answer(Packet.TYPE.A, address));
      if (question.type === Packet.TYPE.AAAA) for (const address of records?.aaaa ?? []) response.answers.push(answer(Packet.TYPE.AAAA, address));
      void send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const { port } = server.addresses().udp!;
  return { server: `127.0.0.1:${port}`, asked, close: () => server.close() };
}
