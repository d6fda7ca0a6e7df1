/**
 * The room a part of a page will take, kept while its answer is on the way: an empty region of its
 * name, busy, so that what lies below stays where it is when the part comes (a phone counts every
 * move of what is on screen as a layout shift). Its size comes from `className` (CSS knows a
 * phone's layout from a desk's) or `height` (px).
 */
export function KeptRoom(props: { label: string; className?: string; height?: number }) {
  return (
    <div
      role="region"
      aria-label={props.label}
      aria-busy="true"
      className={props.className}
      style={props.height === undefined ? undefined : { minHeight: props.height }}
    />
  );
}
