// plateau's page, its shared helpers: the page's state (`ui`), the JSON API call, element creation, errors.
// Plain scripts over the JSON API (docs/server.md), no framework, no build step: index.html loads them in order and
// they share one global scope; app.js wires them to the page.
'use strict';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const ui = {
  games: [], game: null, state: null, flipped: false, selected: null, source: null,
  tab: 'play', drag: null, replay: null, replayGame: 0, replayPly: 0,
};

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers['content-type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  const text = await res.text();
  let data;
  try { data = JSON.parse(text); } catch (e) { data = { error: text.split('\n')[0] }; }
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

function showError(e) { $('error').textContent = e ? String(e.message || e) : ''; }

function el(tag, attrs, parent, text) {
  const ns = ['svg', 'rect', 'circle', 'text', 'polygon', 'polyline', 'line', 'g', 'title', 'path'].includes(tag);
  const node = ns ? document.createElementNS(SVG, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}
