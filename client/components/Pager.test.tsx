import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test-utils/render';
import { Pager, visiblePages } from './Pager';

describe('Pager', () => {
  it('says which rows are shown and disables previous on the first page', async () => {
    const onChange = vi.fn();
    const { user } = renderWithProviders(<Pager page={1} pageSize={10} total={23} onChange={onChange} />);
    expect(screen.getByTestId('pager-summary')).toHaveTextContent('Showing 1 to 10 of 23 results');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(onChange).toHaveBeenCalledWith(3);
  });

  it('on the last page shows the remainder and disables next', () => {
    renderWithProviders(<Pager page={3} pageSize={10} total={23} onChange={() => {}} />);
    expect(screen.getByTestId('pager-summary')).toHaveTextContent('Showing 21 to 23 of 23 results');
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
  });

  it('with no rows: 0 to 0 of 0 and both ends disabled', () => {
    renderWithProviders(<Pager page={1} pageSize={10} total={0} onChange={() => {}} />);
    expect(screen.getByTestId('pager-summary')).toHaveTextContent('Showing 0 to 0 of 0 results');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('shows nothing until the list has answered: no count is known yet', () => {
    renderWithProviders(<Pager page={1} pageSize={10} total={undefined} onChange={() => {}} />);
    expect(screen.queryByTestId('pager-summary')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pages' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows a window of at most 7 numbered pages around the current one', () => {
    expect(visiblePages(1, 3)).toEqual([1, 2, 3]);
    expect(visiblePages(1, 20)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(visiblePages(10, 20)).toEqual([7, 8, 9, 10, 11, 12, 13]);
    expect(visiblePages(20, 20)).toEqual([14, 15, 16, 17, 18, 19, 20]);
  });
});
