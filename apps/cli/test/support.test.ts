// `svc support list|show|reply` as a real process against the real API served over HTTP on
// 127.0.0.1 (PGlite, or PostgreSQL with TEST_DATABASE_URL), with tickets opened as the bots
// open them, the operator's key and a customer's.
import { TypeOrmBotSupportDesk } from "@svc/persistence";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "@svc/server/testing";
import { svc } from "./spawn.js";

const engine = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";

describe.sequential(`svc support against a real API (${engine})`, { timeout: 300_000 }, () => {
  let api: TestApi;
  let url = "";
  let operator = "";
  let customer = "";
  let desk: TypeOrmBotSupportDesk;
  let first = "";
  let second = "";
  beforeAll(async () => {
    api = await startTestApi(engine);
    ({ key: operator } = await api.account("pro", "operator"));
    ({ key: customer } = await api.account("pro"));
    url = await api.listen();
    desk = new TypeOrmBotSupportDesk(api.runtime.dataSource);
    first = (await desk.open({ platform: "telegram", chatId: "-1001234567890", userId: "200", topic: "general", text: "the bot deleted\nmy link to our docs", openedAt: "2026-03-02T09:00:00.000Z" })).id;
    second = (await desk.open({ platform: "discord", chatId: "g-7", userId: "300", topic: "payments", text: "charged twice", openedAt: "2026-03-02T09:05:00.000Z" })).id;
  }, 180_000);
  afterAll(async () => {
    await api?.close();
  });

  const as = (key: string) => ["--url", url, "--key", key];

  it("a customer's key is refused with one plain line, and sees no ticket", async () => {
    const r = await svc(["support", "list", ...as(customer)]);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("error: Only the operator may read and answer support tickets, and this API key is a customer's.");
    expect(r.stderr).not.toContain("deleted");
    const reply = await svc(["support", "reply", first, "hello", ...as(customer)]);
    expect(reply.code).toBe(3);
    expect((await desk.get(first))?.replies).toEqual([]);
  });

  it("lists the open tickets, shows one, answers it; the answer waits in the bot's outbox", async () => {
    const list = await svc(["support", "list", ...as(operator)]);
    expect(list.code, list.stderr).toBe(0);
    const lines = list.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+OPENED \(UTC\)\s+CHAT\s+TOPIC\s+STATUS\s+REPLIES\s+TEXT$/u);
    expect(lines[1]).toMatch(new RegExp(`^${first}\\s+2026-03-02 09:00:00\\s+telegram:-1001234567890\\s+general\\s+open\\s+0\\s+the bot deleted my link to our docs$`, "u"));
    expect(lines[2]).toMatch(new RegExp(`^${second}\\s+2026-03-02 09:05:00\\s+discord:g-7\\s+payments\\s+open\\s+0\\s+charged twice$`, "u"));

    const answered = await svc(["support", "reply", first, "We restored your link;", "sorry about that.", ...as(operator)]);
    expect(answered.code, answered.stderr).toBe(0);
    expect(answered.stdout).toMatch(new RegExp(`^Answered ${first} \\(rpl_[0-9a-f]+\\): the ticket's bot delivers it to the chat the ticket came from\\.`, "u"));
    expect(await desk.claimReplies("telegram", new Date(), 60_000, 10)).toEqual([expect.objectContaining({ ticketId: first, chatId: "-1001234567890", text: "We restored your link; sorry about that." })]);

    const show = await svc(["support", "show", first, ...as(operator)]);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain(`Ticket ${first} (answered, general)`);
    expect(show.stdout).toContain("Opened 2026-03-02T09:00:00.000Z by user 200 in telegram chat -1001234567890");
    expect(show.stdout).toContain("  the bot deleted\n  my link to our docs");
    expect(show.stdout).toMatch(/Answer rpl_\S+ by acc_\S+ at \S+ — waiting for the bot\n {2}We restored your link; sorry about that\.\n$/u);

    const open = await svc(["support", "list", "--json", ...as(operator)]);
    expect((JSON.parse(open.stdout) as { items: { id: string }[] }).items.map((t) => t.id)).toEqual([second]);
    const all = await svc(["support", "list", "--status", "all", "--limit", "1", "--all", "--json", ...as(operator)]);
    expect((JSON.parse(all.stdout) as { id: string; status: string }[]).map((t) => [t.id, t.status])).toEqual([[first, "answered"], [second, "open"]]);
  });

  it("an unknown ticket and an empty answer get a helpful line and exit 2", async () => {
    const unknown = await svc(["support", "show", "T-NOSUCHID", ...as(operator)]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error: No support ticket T-NOSUCHID.");
    expect(unknown.stderr).toContain("svc support list --status all");
    const empty = await svc(["support", "reply", second, "   ", ...as(operator)]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("error: The answer is empty.");
  });
});
