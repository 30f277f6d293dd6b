/** The page readers (linkedom, Readability, Turndown), loaded together with the first page read. */
export { pageArticle } from './page-article';
export { pageText } from './page-charset';
