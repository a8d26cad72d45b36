/** esbuild bundles imported CSS into main.css. */
declare module '*.css';
