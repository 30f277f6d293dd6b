import { parseNotes } from './parse-file';

// Piscina calls the default export with each task in a worker thread.
export default parseNotes;
