import { apiErrorSchema } from '#core/contracts/common.contract.ts';

/**
 * The OpenAPI schemas of one module's routes: its tag and the error answers they share, so that a
 * route states only its summary, its 200 answer and its inputs (params, querystring, body, headers),
 * and `errors` where its error answers differ from the module's.
 */
export function routeSchemas<E extends object>(tag: string, errors: E) {
  return <A, I extends object = object, O extends object = E>(
    summary: string,
    answer: A,
    inputs = {} as I & { errors?: O },
  ) => {
    const { errors: own = errors, ...rest } = inputs;
    return { tags: [tag], summary, ...rest, response: { 200: answer, ...own } };
  };
}

/** Error answers by status, each with the API's error body: `errorAnswers(401, 404)`. */
export function errorAnswers<const C extends number>(...codes: C[]) {
  return Object.fromEntries(codes.map((code) => [code, apiErrorSchema])) as Record<C, typeof apiErrorSchema>;
}
