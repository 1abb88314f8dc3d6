// The page's entry: app.js imports the rest, and the browser fetches the modules in parallel
// (the server reads up to 128 connections at once).
import './app.js';
