// The players' page: renders what BrikDesk sends on its event stream (read-only, no library).
// Every text goes in through textContent, never as HTML; styles through the CSSOM only.
"use strict";

const openKeys = new Set();  // the unit cards and rosters a player opened stay open
let source = null;
let retry = null;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function svg(tag, attrs) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  return node;
}

function keep(details, key) {  // a <details> that remembers being open across updates
  details.dataset.key = key;
  if (openKeys.has(key)) details.open = true;
  details.addEventListener("toggle", () => {
    if (details.open) openKeys.add(key); else openKeys.delete(key);
  });
  return details;
}

function fill(id, nodes) {
  const section = document.getElementById(id);
  section.replaceChildren(...nodes.filter((n) => n));
  section.hidden = nodes.length === 0;
}

function cardView(card) {
  const box = el("div", { class: "card" });
  const armor = card.armor_detail ? `${card.armor} (${card.armor_detail})` : card.armor;
  box.append(el("p", { text: `${card.type} · Action ${card.die} · Move ${card.move} · Armor ${armor}` }));
  if (card.counters) box.append(el("p", { class: "muted", text: `Counters: ${card.counters}` }));
  if (card.traits.length) box.append(el("p", { class: "muted", text: card.traits.join(" · ") }));
  if (card.items.length) {
    const t = el("table", {}, el("tr", {}, el("th", { text: "Item" }), el("th", { text: "Use" }),
      el("th", { text: "Range" }), el("th", { text: "Damage" })));
    for (const i of card.items) {
      t.append(el("tr", {}, el("td", { text: i.notes ? `${i.name} (${i.notes})` : i.name }),
        el("td", { text: i.use }), el("td", { text: i.range }), el("td", { text: i.damage })));
    }
    box.append(el("div", { class: "scroll" }, t));
  }
  if (card.notes) box.append(el("p", { class: "muted", text: card.notes }));
  return box;
}

function unitView(u, player, cards) {
  const summary = el("summary", {}, el("span", { class: "uname", text: u.name }),
    el("span", { class: "utype", text: u.type }));
  if (u.out) summary.append(el("span", { class: "chip", text: u.dead ? "Dead" : "Out of the battle" }));
  else {
    const ready = u.action === "Ready";
    summary.append(el("span", { class: "chip " + (ready ? "ready" : "spent"), text: `Action: ${u.action}` }));
    if (u.counters) summary.append(el("span", { class: "chip", text: `Counters ${u.counters}` }));
  }
  for (const s of u.statuses) {
    if (u.dead && s === "Dead") continue;
    summary.append(el("span", { class: "chip status", text: s }));
  }
  const d = el("details", { class: "unit" + (u.out ? " dead" : "") }, summary, cardView(cards[u.card]));
  return keep(d, `unit:${player}:${u.name}`);
}

function battleView(b, cards) {
  if (!b) return [];
  const turn = el("p", { class: "turn" }, `Round ${b.round} · `);
  const who = el("b", { text: `${b.active}'s turn` });
  who.style.setProperty("background", b.active_colour);
  who.style.setProperty("color", b.active_ink);  // black or white, whichever reads on it
  turn.append(who);
  const out = [el("h2", { text: b.name }), turn];
  for (const p of b.players) {
    const box = el("div", { class: "player" + (p.active ? " active" : "") },
      el("h3", { text: p.faction ? `${p.name} (${p.faction})` : p.name }),
      el("div", { class: "summary", text: p.summary }));
    box.style.setProperty("border-left-color", p.colour);
    for (const u of p.units) box.append(unitView(u, p.name, cards));
    out.push(box);
  }
  return out;
}

function entryView(e) {
  const box = el("div", { class: "attack" }, el("p", {}, el("strong", { text: e.headline })));
  for (const r of e.rolls) box.append(el("p", { text: r }));
  if (e.result) box.append(el("p", { text: e.result }));
  return box;
}

function percent(p) {  // as the combat wizard writes a chance
  if (p === 0) return "0%";
  if (p === 1) return "100%";
  if (p < 0.001) return "<0.1%";
  if (p > 0.999) return ">99.9%";
  return `${(p * 100).toFixed(1)}%`;
}

function logView(b) {
  if (!b) return [];
  const out = [];
  if (b.last_attack) {
    const box = entryView(b.last_attack);
    const o = b.last_attack_odds;
    if (o) {
      box.append(el("p", { class: "muted", text: `Its odds as set up: hit ${percent(o.hit)}, `
        + `destroy ${percent(o.kill)}; Over the Top ${percent(o.over_the_top)}, `
        + `critical failure ${percent(o.critical_failure)}` }));
    }
    out.push(el("h2", { text: "Last attack" }), box);
  }
  out.push(el("h2", { text: "Battle log, newest first" }));
  const list = el("ol", { class: "log" });
  for (const line of b.log) {
    list.append(el("li", {}, line.when ? el("span", { class: "when", text: line.when }) : null, line.text));
  }
  if (!b.log.length) list.append(el("li", { class: "muted", text: "Nothing has happened yet." }));
  out.push(list);
  return out;
}

function table(head, rows, numeric) {
  const t = el("table");
  t.append(el("tr", {}, ...head.map((h, i) => el("th", { class: numeric[i] ? "n" : "", text: h }))));
  for (const r of rows) {
    t.append(el("tr", {}, ...r.map((c, i) => el("td", { class: numeric[i] ? "n" : "", text: String(c) }))));
  }
  return el("div", { class: "scroll" }, t);
}

function legendView(armies, colours) {
  const legend = el("p", { class: "legend" });
  armies.forEach((a, k) => {
    const sw = el("i"); sw.style.setProperty("background", colours[k]);
    legend.append(el("span", {}, sw, `${a.army} (${a.player})`));
  });
  return legend;
}

function shortened(text, chars) {  // a battle's name in the room its point has on the axis
  return text.length <= chars ? text : `${text.slice(0, Math.max(1, chars - 1))}…`;
}

function chart(title, labels, series, colours, legend) {
  // A line per army over the battles; simple SVG, 320 wide, scaled to the page by CSS. The x
  // axis names the battles (shortened to the room each has; whole in the chart's label).
  const w = 320, h = 160, left = 30, right = 8, bottom = 20, top = 8;
  const values = series.flatMap((s) => s.values);
  const max = Math.max(1, ...values);
  const n = Math.max(2, labels.length);
  const x = (i) => left + (i * (w - left - right)) / (n - 1);
  const y = (v) => top + (h - top - bottom) * (1 - v / max);
  const named = `${title}, over: ${labels.join(", ")}`;
  const g = svg("svg", { class: "chart", viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": named });
  g.append(svg("line", { class: "axis", x1: left, y1: y(0), x2: w - 4, y2: y(0) }));
  g.append(svg("line", { class: "axis", x1: left, y1: top, x2: left, y2: y(0) }));
  const maxText = svg("text", { x: 2, y: top + 8 }); maxText.textContent = String(max); g.append(maxText);
  const zero = svg("text", { x: 2, y: y(0) }); zero.textContent = "0"; g.append(zero);
  const every = Math.max(1, Math.ceil(labels.length / 4));  // at most 4 names fit 320 wide
  const room = Math.floor(((w - left - right) / Math.max(1, Math.min(labels.length, 4) - 1)) / 5.6);
  labels.forEach((label, i) => {
    if (i % every && i !== labels.length - 1) return;
    const anchor = i === 0 ? "start" : i === labels.length - 1 ? "end" : "middle";
    const t = svg("text", { x: x(i), y: h - 5, "text-anchor": anchor });
    t.textContent = shortened(String(label), Math.max(6, room));
    const full = svg("title"); full.textContent = String(label); t.append(full);
    g.append(t);
  });
  series.forEach((s, k) => {
    const pts = s.values.map((v, i) => `${x(i)},${y(v)}`).join(" ");
    g.append(svg("polyline", { points: pts, fill: "none", stroke: colours[k], "stroke-width": 2 }));
    s.values.forEach((v, i) => g.append(svg("circle", { cx: x(i), cy: y(v), r: 2.5, fill: colours[k] })));
  });
  return [el("h3", { text: title }), legend, g];
}

function standingView(s) {
  // A phone's width holds the battles won, drawn and lost and the army's value; the rest of
  // the player's numbers are a tap away, as a unit's card is.
  const value = s.budget ? `${s.value} / ${s.budget}` : String(s.value);
  const summary = el("summary", {}, el("span", { class: "uname", text: s.player }),
    el("span", { class: "chip", text: `${s.won} won · ${s.drawn} drawn · ${s.lost} lost` }),
    el("span", { class: "chip", text: `Value ${value}` }));
  const numbers = [["Battles fought", s.fought], ["Won", s.won], ["Drawn", s.drawn],
    ["Lost", s.lost], ["Army value", value], ["Units alive", s.units_alive],
    ["Units lost", s.casualties], ["Kills", s.kills]];
  const t = el("table", {}, ...numbers.map(([k, v]) =>
    el("tr", {}, el("th", { text: k }), el("td", { class: "n", text: String(v) }))));
  const d = el("details", { class: "unit standing" }, summary, el("div", { class: "card" }, t));
  return keep(d, `standing:${s.player}`);
}

function campaignView(h, rosters) {
  if (!h) return [];
  const colourOf = {};
  for (const r of rosters) colourOf[r.army] = r.colour;
  const out = [el("h2", { text: "Standings" }), ...h.standings.map(standingView)];
  out.push(el("h2", { text: "Timeline" }));
  if (!h.timeline.length) out.push(el("p", { class: "muted", text: "No battle finished yet." }));
  const list = el("ol", { class: "log" });
  for (const e of [...h.timeline].reverse()) {
    const lost = Object.entries(e.casualties).map(([p, n]) => `${p} lost ${n}`).join(", ");
    const top = e.top_unit ? ` Most kills: ${e.top_unit.name} (${e.top_unit.player}), ${e.top_unit.kills}.` : "";
    list.append(el("li", {}, el("span", { class: "when", text: (e.date || "").slice(0, 10) }),
      el("strong", { text: e.name }), ` — ${e.sides.join(" vs ")}. `,
      e.winner ? `Won by ${e.winner}. ` : "Draw. ", lost ? `${lost}.` : "", top));
  }
  out.push(list);
  const armies = h.series.armies;
  if (h.series.points.length > 1 && armies.length) {
    const colours = armies.map((a) => colourOf[a.army] || "#888888");
    const points = h.series.points;
    out.push(el("h2", { text: "Over the battles" }));
    for (const [title, key] of [["Army value", "value"], ["Units alive", "units_alive"],
      ["Casualties", "casualties"], ["Kills", "kills"]]) {
      out.push(...chart(title, points, armies.map((a) => ({ values: a[key] })), colours,
        legendView(armies, colours)));
    }
  }
  if (h.leaderboard.units.length) {
    out.push(el("h2", { text: "Most kills" }));
    out.push(table(["Unit", "Player", "Kills", "Battles"],
      h.leaderboard.units.slice(0, 10).map((u) => [u.name, u.player, u.kills, u.battles]),
      [false, false, true, true]));
  }
  return out;
}

function rostersView(rosters) {
  if (!rosters.length) return [];
  const out = [el("h2", { text: "Rosters" })];
  for (const r of rosters) {
    const budget = r.budget ? ` of ${r.budget}` : "";
    const d = el("details", { class: "army" },
      el("summary", { text: `${r.army} — ${r.player}, ${r.total}${budget} ${r.cost_unit}, ${r.units.length} units` }));
    d.firstChild.style.setProperty("border-left", `6px solid ${r.colour}`);
    d.firstChild.style.setProperty("padding-left", "8px");
    for (const u of r.units) {
      const ud = el("details", { class: "unit" }, el("summary", {},
        el("span", { class: "uname", text: u.name }), el("span", { class: "utype", text: u.card.type })),
        cardView(u.card));
      d.append(keep(ud, `roster:${r.army}:${u.name}`));
    }
    if (r.left_out.length) d.append(el("p", { class: "muted", text: `Fallen: ${r.left_out.join(", ")}` }));
    out.push(keep(d, `army:${r.army}`));
  }
  return out;
}

function reportView(r) {
  if (!r) return [];
  const out = [el("h2", { text: `Report: ${r.title}` }), el("p", { text: `${r.sides} — ${r.status}` })];
  if (r.outcome) out.push(el("p", { text: `Outcome: ${r.outcome}` }));
  if (r.result) out.push(el("p", { text: r.result }));
  out.push(el("p", { class: "muted", text: r.tally }));
  out.push(table(["Player", "Mustered", "Lost", "Kills"],
    r.casualties.map((c) => [c.player, c.mustered, c.lost, c.kills]), [false, true, true, true]));
  for (const round of r.rounds) {
    if (!round.turns.length) continue;
    out.push(el("h3", { text: `Round ${round.number}` }));
    for (const t of round.turns) {
      out.push(el("p", { class: "muted", text: t.title }));
      for (const e of t.entries) out.push(entryView(e));
    }
  }
  return out;
}

let data = {};  // the page's state: each update brings the parts that changed

function render() {
  document.getElementById("loading").hidden = true;
  if (data.problem) {
    fill("battle", [el("p", { class: "notice", text: data.problem })]);
    return;
  }
  document.getElementById("campaign").textContent = data.campaign.name;
  document.title = data.battle ? `${data.battle.name} — ${data.campaign.name}` : data.campaign.name;
  fill("battle", data.battle ? battleView(data.battle, data.cards)
    : [el("h2", { text: "No battle in progress" })]);
  fill("log", logView(data.battle));
  fill("campaign-section", campaignView(data.history, data.rosters || []));
  fill("rosters", rostersView(data.rosters || []));
  fill("report", reportView(data.report));
}

function notice(text) {
  const n = document.getElementById("notice");
  n.textContent = text || "";
  n.hidden = !text;
}

function clock(when) {  // hh:mm:ss, as a person reads the time
  return [when.getHours(), when.getMinutes(), when.getSeconds()]
    .map((v) => String(v).padStart(2, "0")).join(":");
}

// What the page knows of its connection: when sharing ended (BrikDesk said so), since when
// the connection has been lost, and why the last try was refused.
let ended = null;
let lostSince = null;
let refused = 0;
const RESCAN = "If it does not come back, the organizer may be sharing on a new address: "
  + "ask for the new code and scan it.";

function say() {
  if (refused === 404) {
    notice("This address is no longer served: the organizer made a new one. Ask for the new "
      + "code (the Share dialog on the organizer's computer) and scan it.");
  } else if (refused === 503) {
    notice("The table is full: this page is open on as many devices as BrikDesk serves. Close "
      + "it on a device that no longer needs it; this page tries again every 30 seconds.");
  } else if (ended) {
    notice(`Sharing ended at ${clock(ended)}. This page comes back by itself if it is shared `
      + "again at this address (reconnecting…); if not, ask the organizer for the new code "
      + "and scan it.");
  } else if (lostSince) {
    const long = Date.now() - lostSince.getTime() > 30000;
    notice(`Connection to BrikDesk lost at ${clock(lostSince)}, reconnecting…`
      + (long ? ` ${RESCAN}` : ""));
  } else notice("");
}

async function why() {
  // The stream was refused (EventSource says no more): ask the server once why.
  const stop = new AbortController();
  let status = 0;
  try {
    status = (await fetch("events", { cache: "no-store", signal: stop.signal })).status;
  } catch (e) {
    status = 0;  // not reached: the laptop is away, or sharing stopped
  }
  stop.abort();
  refused = status === 404 || status === 503 ? status : 0;
  say();
  retry = setTimeout(connect, refused === 503 ? 30000 : refused === 404 ? 15000 : 3000);
}

function connect() {
  retry = null;
  source = new EventSource("events");
  source.addEventListener("state", (ev) => {
    ended = lostSince = null;
    refused = 0;
    data = Object.assign(data, JSON.parse(ev.data));
    document.getElementById("updated").textContent = `updated ${clock(new Date())}`;
    say();
    render();
    document.dispatchEvent(new CustomEvent("brikdesk-state"));
  });
  source.addEventListener("ended", () => {
    ended = new Date();
    say();
  });
  source.addEventListener("error", () => {
    if (lostSince === null) lostSince = new Date();
    if (source.readyState === EventSource.CLOSED && retry === null) {
      source.close();
      why();
    } else say();
  });
}

setInterval(() => { if (lostSince) say(); }, 5000);
connect();
