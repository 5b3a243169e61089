import { errorMessage } from './errorMessage';

describe('errorMessage', () => {
  it('gives the message of anything thrown', () => {
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage('plain text')).toBe('plain text');
  });
});
