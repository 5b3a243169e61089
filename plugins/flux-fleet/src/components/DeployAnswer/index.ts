export { DeployAnswer, DeployAnswerLine, VERDICT_TONE } from './DeployAnswer';
export { RevisionMatrix } from './RevisionMatrix';
export { useSourceRevisions } from './useSourceRevisions';
