import { fillTemplate, messageTemplate } from './messageTemplate';

const revision = 'main@sha1:4f1c2a9e0b7d6c5a4f3e2d1c0b9a8f7e6d5c4b3a';

describe('messageTemplate', () => {
  it.each([
    // Flux's own messages: one template for every object of a kind
    [`Applied revision: ${revision}`, [revision, 'payments-api', 'team-payments'], 'Applied revision: \u0001'],
    [`stored artifact for revision '${revision}'`, [revision, 'payments', 'flux-system'], "stored artifact for revision '\u0001'"],
    [
      'Helm upgrade succeeded for release team-payments/payments-api.v3 with chart payments@6.5.0',
      ['6.5.0', 'payments-api', 'team-payments'],
      'Helm upgrade succeeded for release \u0003/\u0002.v3 with chart payments@\u0001',
    ],
    // the name is cut before the namespace (a namespace seldom holds a whole name)
    ['release team-api/api-x', ['1.0.0', 'team-api', 'team-api-ns'], 'release \u0002/api-x'],
    // nothing of its own in it: no template
    ['Reconciliation succeeded', [revision, 'payments-api', 'team-payments'], undefined],
    // values too short to cut, or absent
    ['ok v1 in ns a', ['v1', 'a', undefined], undefined],
    // a message with a placeholder character of its own is kept as it is
    [`odd \u0001 ${revision}`, [revision, 'name', 'namespace'], undefined],
  ])('templates %j', (message, values, expected) => {
    const template = messageTemplate(message, values);
    expect(template).toBe(expected);
    // what the record gives back: the message itself, exactly
    expect(template === undefined ? message : fillTemplate(template, values)).toBe(message);
  });

  it('gives every message back exactly, whatever its values and how they overlap', () => {
    const values = [
      ['abcd', 'bcde', 'cdef'],
      ['aaaa', 'aaaaa', 'aaaaaa'],
      ['team', 'team-a', 'a-team'],
      ['x\u0002yz', 'name', 'space'],
    ];
    const messages = ['abcdefabcde cdef', 'aaaaaaaaaaaaa', 'team-a-team/team', 'name x\u0002yz space', ''];
    for (const v of values) {
      for (const m of messages) {
        const template = messageTemplate(m, v);
        expect(template === undefined ? m : fillTemplate(template, v)).toBe(m);
      }
    }
  });
});
