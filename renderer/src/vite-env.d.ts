// Types of what Vite adds to the renderer: CSS imports and import.meta.env.
/// <reference types="vite/client" />
