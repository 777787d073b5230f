import { Term } from '../glossary/Term';

/** The tag on the member the coordinator chose as its group's leader (it computes the assignment). */
export function GroupLeaderTag() {
  return (
    <span className="tag tag-leader">
      <Term name="group leader">leader</Term>
    </span>
  );
}
