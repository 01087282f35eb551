import { useState } from 'react';

/**
 * Page and search term of a list page: a search trims its term and goes back to
 * page 1; an empty term means the plain list, so callers never send an empty search.
 */
export function useListSearch() {
  const [page, setPage] = useState(1);
  const [term, setTerm] = useState('');
  const search = (text: string) => {
    setTerm(text.trim());
    setPage(1);
  };
  return { page, setPage, term, search };
}
