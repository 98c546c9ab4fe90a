// sw.js: the static page's service worker, so that the page plays offline once loaded. It keeps
// the page, the engine, ONNX Runtime and the list of models from the first visit, and every
// model the page has fetched since; online it always asks the host first (a rebuilt site is
// seen at once), offline it answers from what it kept. Browsers run it on https:// and on
// localhost only (a secure context); elsewhere the page works online as before.
// It also makes the page cross-origin isolated, which ONNX Runtime needs for its threads: a plain
// static host sends no COOP/COEP headers, so the worker adds them to every answer it gives (the
// page and all it loads come from its own origin, so require-corp blocks nothing).
'use strict';
const CACHE = 'quax-site-3';
const CORE = ['./', 'index.html', 'app.js', 'board.js', 'chart.js', 'style.css', 'page_backend.js', 'quax_engine.js',
  'quax_engine.wasm', 'ort/ort.wasm.min.js', 'ort/ort-wasm-simd-threaded.mjs', 'ort/ort-wasm-simd-threaded.wasm.gz',
  'models/models.json'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(CORE)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

function isolated(response) {
  if (response.type === 'opaque' || response.type === 'opaqueredirect') return response;
  const headers = new Headers(response.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

self.addEventListener('fetch', (event) => {
  if (event.request.method !== 'GET' || new URL(event.request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(event.request);
      if (response.ok) await cache.put(event.request, response.clone());
      return isolated(response);
    } catch (error) {
      const kept = await cache.match(event.request, { ignoreSearch: true });
      if (kept) return isolated(kept);
      throw error;
    }
  })());
});
