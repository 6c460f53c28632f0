import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Sonner injects its CSS as an inline <style> when imported, which the strict CSP (style-src 'self')
 * blocks. This drops that injection; the same styles ship as a normal stylesheet (sonner/dist/styles.css
 * imported in app/layouts.tsx). docs/decisions/0011-action-needed.md.
 */
function noInlineToastStyles(): Plugin {
  return {
    name: 'hcp-no-inline-toast-styles',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]sonner[\\/]dist[\\/]index\.m?js$/.test(id)) return null;
      const stripped = code.replace(/__insertCSS\("(?:[^"\\]|\\.)*"\);?/, '');
      if (stripped === code) this.error('sonner no longer injects CSS the way this plugin expects; update it');
      return { code: stripped, map: null };
    },
  };
}

const apiTarget = process.env.API_URL ?? 'http://localhost:3000';
const proxied = ['/api', '/auth', '/auth-service', '/healthz', '/readyz'];

export default defineConfig({
  plugins: [noInlineToastStyles(), react()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: apiTarget, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: 'hidden',
    // No inline module-preload polyfill: the server's CSP allows no inline script.
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        // zod and src/zod-config.ts alone in one chunk, loaded first: `jitless` is set after zod loads and before
        // any schema is built (zod probes `new Function` while building an object schema; the CSP reports it).
        manualChunks: (id: string) =>
          /[\\/]node_modules[\\/]zod[\\/]/.test(id) || /[\\/]src[\\/]zod-config\.ts$/.test(id) ? 'zod' : undefined,
      },
    },
  },
});
