// A player's own link: they pick one of their units, the attack and the dice they rolled;
// BrikDesk judges it as the organizer's quick attack form would (attack.json) and the page
// sends it to the organizer (propose), whose answer comes back on the event stream.
// Every text goes in through textContent; styles through the CSSOM only.
"use strict";

// How long the page waits before asking again whose link it is, when it could not be told.
const SEAT_RETRY_MS = 2000;

const roll = { me: null, asked: {}, said: null, timer: null, turn: null, note: "" };

const STATUS = {
  waiting: "waiting for the organizer",
  accepted: "accepted and recorded",
  rejected: "rejected by the organizer",
  correcting: "the organizer is correcting it",
  corrected: "corrected and recorded by the organizer",
  dropped: "dropped: the battle moved on before an answer",
};

function node(tag, attrs, ...children) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") n.textContent = v; else n.setAttribute(k, v);
  }
  for (const c of children) if (c) n.append(c);
  return n;
}

function field(id, label, control) {
  control.id = id;
  return node("p", { class: "field" }, node("label", { for: id, text: label }), control);
}

function options(select, items, chosen) {
  const same = select.options.length === items.length
    && items.every((it, i) => select.options[i].value === String(it.value)
      && select.options[i].textContent === it.label);
  if (!same) {
    select.replaceChildren(...items.map((it) => {
      const o = node("option", { value: String(it.value), text: it.label });
      if (it.why) o.disabled = true;
      return o;
    }));
  }
  if (chosen !== null && chosen !== undefined) select.value = String(chosen);
}

function build() {
  const me = roll.me;
  const section = document.getElementById("roll");
  const title = node("h2", { class: "me", text: `Your roll, ${me.name}` });
  title.style.setProperty("background-color", me.colour);  // the player's colour, and
  title.style.setProperty("color", me.ink);  // the ink BrikDesk chose to read on it
  const unit = node("select");
  const weapon = node("select");
  const target = node("select");
  const range = node("input", { type: "text", inputmode: "decimal", autocomplete: "off",
    placeholder: "inches, e.g. 7.5" });
  const dice = node("input", { type: "text", inputmode: "numeric", autocomplete: "off",
    placeholder: "the dice you rolled, e.g. 5 4" });
  const send = node("button", { type: "button", id: "r-send", text: "Send to the organizer" });
  section.replaceChildren(...[
    title,
    me.proposals ? null : node("p", { class: "notice", text: "The organizer's app is not "
      + "running this share, so a roll cannot be sent from here: tell the organizer your roll." }),
    field("r-unit", "Your unit", unit),
    field("r-weapon", "Weapon", weapon),
    field("r-target", "Target", target),
    field("r-range", "Range (inches)", range),
    node("p", { id: "r-odds", class: "odds" }),
    node("ul", { id: "r-mods", class: "muted" }),
    field("r-dice", "Dice", dice),
    node("p", { id: "r-need", class: "muted" }),
    node("p", { id: "r-result", class: "result" }),
    node("p", { id: "r-why", class: "notice", role: "status" }),
    send,
    node("h3", { text: "What you sent" }),
    node("ol", { id: "r-sent", class: "log" }),
  ].filter((n) => n));
  section.hidden = false;
  unit.addEventListener("change", () => { roll.asked = { unit: unit.value }; ask(); });
  weapon.addEventListener("change", () => {
    roll.asked = { unit: unit.value, weapon: weapon.value }; ask();
  });
  target.addEventListener("change", () => { roll.asked.target = target.value; ask(); });
  range.addEventListener("input", () => { roll.asked.range = range.value; later(); });
  dice.addEventListener("input", () => { roll.asked.dice = dice.value; later(); });
  send.addEventListener("click", propose);
}

function later() {
  clearTimeout(roll.timer);
  roll.timer = setTimeout(ask, 150);
}

async function ask() {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(roll.asked)) if (v !== undefined && v !== "") q.set(k, v);
  let said;
  try {
    const r = await fetch(`attack.json?${q}`, { cache: "no-store" });
    said = await r.json();
    if (!r.ok) said = { problem: said.error || "BrikDesk could not judge this attack." };
  } catch (e) {
    said = { problem: "BrikDesk is not reached: the roll cannot be judged now." };
  }
  roll.said = said;
  show();
}

function text(id, value) {
  document.getElementById(id).textContent = value || "";
  document.getElementById(id).hidden = !value;
}

function show() {
  const s = roll.said || {};
  const units = s.units || [];
  options(document.getElementById("r-unit"),
    units.map((u) => ({ value: u.id, label: u.why ? `${u.name} (${u.why})` : u.name })), s.unit);
  options(document.getElementById("r-weapon"),
    (s.weapons || []).map((w) => ({ value: w.key, label: w.label, why: w.why })), s.weapon);
  options(document.getElementById("r-target"),
    (s.targets || []).map((t) => ({ value: t.id, label: t.label })), s.target);
  document.getElementById("r-range").parentNode.hidden = !s.ranged;
  roll.asked.unit = s.unit;
  text("r-odds", s.odds);
  document.getElementById("r-mods").replaceChildren(
    ...(s.modifiers || []).map((m) => node("li", { text: m })));
  const dice = (s.dice || []).map((d) => `d${d.sides} ${d.face}`).join(", ");
  text("r-need", [dice && `Typed: ${dice}.`, s.need && `Next: a d${s.need.sides} (${s.need.why}).`]
    .filter(Boolean).join(" "));
  text("r-result", s.result);
  const why = roll.note || s.problem || (s.need ? "" : s.why);
  text("r-why", why);
  document.getElementById("r-send").disabled = !(s.ready && roll.me.proposals);
}

function newId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function propose() {
  const s = roll.said;
  if (!s || !s.ready) return;
  const body = { id: newId(), turn: s.turn, unit: s.unit, weapon: s.weapon, target: s.target,
    range: roll.asked.range || "", dice: roll.asked.dice || "" };
  const button = document.getElementById("r-send");
  button.disabled = true;
  try {
    const r = await fetch("propose", { method: "POST", cache: "no-store",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const said = await r.json();
    roll.note = r.ok ? "" : said.error;
    if (r.ok) {
      roll.asked.dice = "";
      document.getElementById("r-dice").value = "";
    }
  } catch (e) {
    roll.note = "BrikDesk is not reached: the roll was not sent.";
  }
  await ask();
  roll.note = "";
}

function sent() {
  const list = document.getElementById("r-sent");
  if (!list || !roll.me) return;
  const mine = (data.proposals || []).filter((p) => p.player_id === roll.me.player_id);
  list.replaceChildren(...mine.slice().reverse().map((p) => node("li",
    { class: `proposal ${p.status}`, "data-id": p.id },
    node("span", { class: "when", text: STATUS[p.status] || p.status }),
    p.text + (p.note ? ` (${p.note})` : ""))));
}

async function seat() {
  let r = null;
  try {
    r = await fetch("me.json", { cache: "no-store" });
  } catch (e) {
    r = null;  // not reached: the share restarting, the Wi-Fi gone a moment
  }
  if (r === null || r.status >= 500) {  // not reached, or busy: ask again in a moment
    setTimeout(seat, SEAT_RETRY_MS);
    return;
  }
  if (!r.ok) return;  // the watch-only link: nothing to send from here
  roll.me = await r.json();
  build();
  await ask();
  sent();
  document.addEventListener("brikdesk-state", () => {
    sent();
    const turn = data.battle ? `${data.battle.round}:${data.battle.active}` : null;
    if (turn !== roll.turn) {
      roll.turn = turn;
      ask();  // the battle moved on: what may be done now
    }
  });
}

seat();
