import { applyProjection } from '../src/embedded-mongo/query';
console.log(applyProjection({ _id: 1, a: 2, b: 3 }, { _id: 1 }), applyProjection({ _id: 1, a: 2, b: 3 }, { _id: true, a: 0 } as never));
