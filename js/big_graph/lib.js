// The renderer, bundled alone: the widget evaluates it once per page (see index.js).
export { Graph } from "@cosmos.gl/graph";
