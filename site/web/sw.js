// sw.js: the static page's service worker, so that the page plays offline once loaded. It keeps
// the page, the engine, ONNX Runtime and the list of models from the first visit, and every
// model the page has fetched since; online it always asks the host first (a rebuilt site is
// seen at once), offline it answers from what it kept. Browsers run it on https:// and on
// localhost only (a secure context); elsewhere the page works online as before.
'use strict';
const CACHE = 'quax-site-1';
const CORE = ['./', 'index.html', 'app.js', 'board.js', 'chart.js', 'style.css', 'page_backend.js', 'quax_engine.js',
  'quax_engine.wasm', 'ort/ort.wasm.min.js', 'ort/ort-wasm-simd-threaded.mjs', 'ort/ort-wasm-simd-threaded.wasm',
  'models/models.json'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(CORE)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('fetch', (event) => {
  if (event.request.method !== 'GET' || new URL(event.request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(event.request);
      if (response.ok) await cache.put(event.request, response.clone());
      return response;
    } catch (error) {
      const kept = await cache.match(event.request, { ignoreSearch: true });
      if (kept) return kept;
      throw error;
    }
  })());
});
